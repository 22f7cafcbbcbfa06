"""The solver panel is built from a Family: its presets, its choices, the parameters each
preset uses, and the update schedule a preset needs."""

from __future__ import annotations

import pytest

from rmviz.solvers.family import CHOICES
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
    assert shown == [choice for choice in family.choices if choice in CHOICE_LABELS]
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
    panel.parameters["alpha"].setText("2.5")
    panel.parameters["alpha"].editingFinished.emit()
    assert changed[-1].alpha == 2.5
    panel.parameters["alpha"].setText("lots")
    panel.parameters["alpha"].editingFinished.emit()
    assert "'lots' is not a number" in panel.problem.text() and panel.problem.isVisibleTo(panel)
    assert panel.config().alpha == 2.5 and len(changed) == 1
