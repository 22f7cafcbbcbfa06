"""The catalog's signalling game (von Stengel & Forges 2008, Section 2.3): its reduced
strategic form is the paper's Figure 2, every Nash equilibrium and the best correlated
equilibrium pay (0, 6), and the paper's EFCE device pays (3.5, 6.5)."""

from __future__ import annotations

import io
from fractions import Fraction

import numpy as np
import pytest

from rmviz.games.catalog import CATALOG, catalog_game
from rmviz.games.reduced import reduced_strategic_form
from rmviz.solvers.matrix.correlated import best_correlated

# Figure 2 of the paper (as OpenSpiel's corr_dist_test writes it): rows X_G X_B, X_G Y_B,
# Y_G X_B, Y_G Y_B; columns l_X l_Y, l_X r_Y, r_X l_Y, r_X r_Y
FIGURE_2 = np.array(
    [
        [[5, 5, 0, 0], [5, 2, 3, 0], [5, 3, 2, 0], [5, 0, 5, 0]],
        [[5, 5, 6, 6], [5, 8, 3, 6], [5, 3, 8, 6], [5, 6, 5, 6]],
    ],
    dtype=float,
)


def test_the_reduced_form_is_the_papers_figure_2():
    form = reduced_strategic_form(catalog_game("signaling"))
    assert form.action_names == (
        ("G:X B:X", "G:X B:Y", "G:Y B:X", "G:Y B:Y"),
        ("X:l Y:l", "X:l Y:r", "X:r Y:l", "X:r Y:r"),
    )
    assert np.array_equal(form.payoffs, FIGURE_2)
    assert CATALOG["signaling"].kind == "tree"


def test_the_best_correlated_equilibrium_pays_0_and_6_and_the_efce_device_35_and_65():
    form = reduced_strategic_form(catalog_game("signaling"))
    best = best_correlated(form, "CE")
    assert best.exact and best.welfare == 6
    # the paper's EFCE: G's and B's signals independent and uniform; player 2 accepts G's
    # signal and refuses the other (the receiver's strategy: l at G's signal)
    device = np.zeros((4, 4), dtype=object)
    device[:, :] = Fraction(0)
    for good in (0, 1):  # G's signal X or Y
        for bad in (0, 1):
            receiver = 1 if good == 0 else 2  # X:l Y:r, or X:r Y:l
            device[2 * good + bad, receiver] = Fraction(1, 4)
    payoffs = [sum(device[s] * Fraction(int(form.payoffs[i][s])) for s in np.ndindex(4, 4)) for i in (0, 1)]
    assert payoffs == [Fraction(7, 2), Fraction(13, 2)]


@pytest.mark.gambit
def test_every_nash_equilibrium_pays_0_and_6():
    gbt = pytest.importorskip("pygambit")
    from rmviz.formats.nfg import write_nfg

    form = gbt.read_nfg(io.StringIO(write_nfg(reduced_strategic_form(catalog_game("signaling")))))
    equilibria = gbt.nash.enummixed_solve(form, rational=True).equilibria
    assert equilibria
    for profile in equilibria:  # the extreme points of every component
        assert [Fraction(str(profile.payoff(p))) for p in form.players] == [0, 6]
