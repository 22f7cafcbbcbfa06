"""Decade ticks of log axes (shared by the exported figures and the live plots)."""

from __future__ import annotations

import math

from rmviz.present.ticks import decade_label, decade_tex, decade_ticks


def test_every_decade_when_there_is_room_with_unlabelled_minor_ticks():
    majors, minors = decade_ticks(0.0, 3.4, room=10)
    assert majors == [0, 1, 2, 3]
    assert math.log10(2) in minors and 3 + math.log10(2) in minors and len(minors) == 8 * 3 + 1


def test_every_kth_decade_when_short_and_stable_while_panning():
    majors, minors = decade_ticks(-12.0, 0.0, room=4)
    assert majors == [-12, -8, -4, 0] and len(majors) <= 4
    assert -11.0 in minors and -12.0 not in minors  # the unlabelled decades between
    assert decade_ticks(-11.0, 1.0, room=4)[0] == [-8, -4, 0]  # multiples of the stride


def test_labels():
    assert [decade_label(e) for e in (0, 1, 3, -12)] == ["1", "10", "10³", "10⁻¹²"]
    assert [decade_tex(e) for e in (0, 1, -3)] == ["$1$", "$10$", "$10^{-3}$"]


def test_two_decades_are_labelled_where_there_is_room_for_two():
    """Multiples of the stride gave one label (10^-3 of 10^-4 .. 10^-1 at room 2, issue 29)."""
    assert decade_ticks(-4.0, -1.0, room=2)[0] == [-4, -2]
    assert decade_ticks(-5.0, -1.0, room=2)[0] == [-5, -2]
    assert decade_ticks(-8.0, 0.0, room=2)[0] == [-5, 0]  # two multiples of 5: kept
    assert decade_ticks(-2.0, 0.0, room=1)[0] == [0]  # room for one
