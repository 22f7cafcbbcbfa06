"""The solver panel is built from a Family: its presets, its choices, the parameters each
preset uses, and the update schedule a preset needs."""

from __future__ import annotations

import dataclasses

import pytest

from rmviz.errors import RmvizError
from rmviz.solvers.family import CHOICES, OPTIONAL_CHOICES
from rmviz.solvers.registry import FAMILIES
from rmviz.ui.common.solver_panel import CHOICE_LABELS, SolverPanel


@pytest.fixture(params=FAMILIES, ids=lambda family: family.name)
def panel(request, qtbot):
    shown = SolverPanel(request.param)
    qtbot.addWidget(shown)
    shown.show()
    return shown


def test_the_panel_lists_the_family_presets(panel):
    family = panel.family
    names = [panel.algorithm.itemData(k) for k in range(panel.algorithm.count())]
    assert names == list(family.presets)
    assert panel.config().algorithm == family.default_algorithm


def test_the_panel_shows_exactly_the_family_choices(panel):
    family = panel.family
    shown = [choice for choice in CHOICE_LABELS if panel.choice_widget(choice).isVisibleTo(panel)]
    taken = family.presets[family.default_algorithm][1]  # EFR's deviations: only where a preset sets them
    assert shown == [
        choice
        for choice in family.choices
        if choice in CHOICE_LABELS and (choice not in OPTIONAL_CHOICES or choice in taken)
    ]
    # the choices without a row are set on the command line (--fix, --start)
    assert set(CHOICES) - set(CHOICE_LABELS) == {"fixed_strategies", "start"}
    assert panel.cadence.isVisibleTo(panel) and panel.speed.isVisibleTo(panel)


def test_each_preset_shows_the_parameters_its_config_uses(panel):
    family = panel.family
    assert set(panel.parameters) == set(family.parameters)
    for name in family.presets:
        panel.algorithm.setCurrentIndex(panel.algorithm.findData(name))
        config = family.preset(name)
        shown = {p for p, edit in panel.parameters.items() if edit.isVisibleTo(panel)}
        assert shown == set(config.parameters()), name
        assert panel.updates.isEnabled() == (not config.schedule_locked), name
        assert panel.updates.currentText() == config.updates, name
        assert panel.config().algorithm == name and not panel.problem.text()


def test_a_refused_entry_keeps_the_last_valid_config(panel):
    family = panel.family
    name = next(n for n in family.presets if "alpha" in family.preset(n).parameters())
    panel.algorithm.setCurrentIndex(panel.algorithm.findData(name))
    changed = []
    panel.changed.connect(lambda: changed.append(panel.config()))
    assert "alpha=1.5" in panel.description.text()  # the preset's default, said
    panel.parameters["alpha"].setText("2.5")
    panel.parameters["alpha"].editingFinished.emit()
    assert changed[-1].alpha == 2.5
    assert "alpha=2.5" in panel.description.text() and "1.5" not in panel.description.text()
    panel.parameters["alpha"].setText("lots")
    panel.parameters["alpha"].editingFinished.emit()
    assert "'lots' is not a number" in panel.problem.text() and panel.problem.isVisibleTo(panel)
    assert panel.config().alpha == 2.5 and len(changed) == 1


def test_a_saved_config_comes_back_in_the_widgets(panel):
    """set_config (a reopened session) shows every preset with its parameters and choices;
    the panel's config is then the saved one, and nothing fires ``changed``."""
    family = panel.family
    changed = []
    panel.changed.connect(lambda: changed.append(True))
    for name in family.presets:
        base = family.preset(name)
        options = {p: 2.5 for p in base.parameters() if p in ("alpha", "gamma", "greedy_floor", "inertia")}
        options["seed"], options["device"] = 17, "cpu"
        if not base.schedule_locked:
            options["updates"] = "simultaneous" if base.updates == "alternating" else "alternating"
        if "play" in family.choices:
            options["play"] = "sampled"
        if "dtype" in family.choices:
            options["dtype"] = "float32"
        config = family.config(name, **options)
        assert panel.set_config(config) == []
        assert panel.config() == config, name
        for parameter, edit in panel.parameters.items():
            assert edit.text() == ("2.5" if parameter in options else ""), (name, parameter)
    assert changed == []


def test_choices_without_a_row_are_carried_until_another_game(panel):
    family = panel.family
    if "start" not in family.choices:
        pytest.skip("the family has no starting strategies")
    config = family.config("rm+", start={0: [0.5, 0.5]}, seed=4)
    panel.set_config(config)
    assert panel.config().start == {0: [0.5, 0.5]}
    panel.seed.setValue(5)  # a change in the panel keeps it
    assert panel.config().start == {0: [0.5, 0.5]} and panel.config().seed == 5
    panel.forget_carried()
    assert panel.config().start is None and panel.config().seed == 5


def test_what_this_machine_lacks_is_replaced_and_said(panel):
    family = panel.family
    if panel.device.findData("gpu") >= 0:
        pytest.skip("this machine has a GPU")
    config = family.config(family.default_algorithm)
    notes = panel.set_config(dataclasses.replace(config, device="gpu"))
    assert notes == ["the session ran on device 'gpu'; here on the CPU"]
    assert panel.config().device == "cpu"
    assert (
        panel.set_cadence(7) == "7 metric points per decade is not offered here; kept normal (200 per decade)"
    )
    assert panel.set_speed(3.0) == "a speed of 3 it/s is not offered here; kept full speed"
    assert panel.set_cadence(1000) is None and panel.points_per_decade() == 1000
    assert panel.set_speed(10.0) is None and panel.speed_limit() == 10.0
    with pytest.raises(RmvizError, match="seed 4294967296 is larger than the solver panel takes"):
        panel.set_config(dataclasses.replace(config, seed=2**32))


def test_the_precision_row_chooses_the_payoffs_dtype(panel):
    if "dtype" not in panel.family.choices:
        pytest.skip("the family has one precision")
    changed = []
    panel.changed.connect(lambda: changed.append(panel.config()))
    assert panel.config().dtype == "float64"
    panel.dtype.setCurrentIndex(panel.dtype.findData("float32"))
    assert changed[-1].dtype == "float32" == panel.config().dtype


def test_the_description_names_every_parameter_with_the_value_used(panel):
    """Each preset's description ends with the values of the parameters its config uses (a
    restored session's alpha=3 showed under a text saying alpha=1.5); none names a value
    itself, so none can contradict the fields."""
    family = panel.family
    for name in family.presets:
        panel.algorithm.setCurrentIndex(panel.algorithm.findData(name))
        config = panel.config()
        text = panel.description.text()
        assert text.startswith(family.presets[name][0]), name
        assert not any(ch.isdigit() for ch in family.presets[name][0].split("(")[0]), name
        for parameter in config.parameters():
            assert parameter.replace("_", " ").split()[0] in text or parameter in text, (name, parameter)


def test_a_restored_config_is_described_with_its_values(panel):
    family = panel.family
    name = next(n for n in family.presets if "alpha" in family.preset(n).parameters())
    panel.set_config(family.preset(name, alpha=3.0, gamma=4.0))
    text = panel.description.text()
    assert "alpha=3" in text and "gamma=4" in text and "beta=0" in text and "1.5" not in text


def test_a_blank_parameter_shows_the_preset_default(qtbot):
    """Optimistic Hedge's own constant step is the blank field's placeholder, Hedge's the
    anytime schedule; a value typed is the run's step size."""
    from rmviz.solvers.registry import MATRIX

    panel = SolverPanel(MATRIX)
    qtbot.addWidget(panel)
    panel.show()
    edit = panel.parameters["step_size"]
    panel.algorithm.setCurrentIndex(panel.algorithm.findData("optimistic-hedge"))
    assert edit.isVisibleTo(panel) and edit.placeholderText() == "0.25"
    assert panel.config().step_size == 0.25
    panel.algorithm.setCurrentIndex(panel.algorithm.findData("hedge"))
    assert edit.placeholderText() == "~1/sqrt(t)" and panel.config().step_size is None
    edit.setText("0.5")
    edit.editingFinished.emit()
    assert panel.config().step_size == 0.5 and "step size=0.5" in panel.description.text()
    panel.algorithm.setCurrentIndex(panel.algorithm.findData("fictitious-play"))
    assert not edit.isVisibleTo(panel) and panel.config().step_size is None
