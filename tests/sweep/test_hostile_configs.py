"""Sweep configs are read like game files and checked whole before anything is written
(issue 33): a pipe or a device is refused, not read; an option of the wrong type, or a
starting or fixed strategy that does not fit a game, is one line naming the cell, and no
results folder is created."""

from __future__ import annotations

import os

import pytest

from rmviz.cli import main
from rmviz.errors import ConfigError, ReadError
from rmviz.solvers.matrix.config import preset
from rmviz.sweep.config import config_from, load_config

GRID = {"games": ["rps", "random:zero-sum:4x4"], "algorithms": ["rm", "cfr"], "iterations": [10], "seeds": 1}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"alpha": "x"}, "alpha must be a number, not 'x'"),
        ({"greedy_floor": [1]}, "greedy_floor must be a number"),
        ({"inertia": {}}, "inertia must be a number"),
        ({"exploration": "x"}, "exploration must be a number"),
        ({"start": 3}, "start must map player numbers to strategies"),
        ({"start": {"0": "abc"}}, "start of player 0: a list of probabilities"),
        ({"start": {"0": [1, "a", 2]}}, "start of player 0: a list of probabilities"),
        ({"fixed_strategies": {"0": {"a": 1}}}, "fixed_strategies of player 0"),
        ({"start": {"0": [1, 0]}}, "rm on rps: the starting strategy of 'Row' needs 3 probabilities"),
        ({"fixed_strategies": {"5": [1, 0, 0]}}, "no fixed strategy for player 6"),
    ],
)
def test_options_are_checked_whole_before_the_sweep(options, message):
    users = {"alpha": "discounted-rm", "greedy_floor": "greedy-rm", "inertia": "internal-rm"}
    algorithm = next((users[name] for name in options if name in users), "rm")
    grid = {**GRID, "algorithms": [algorithm] if "exploration" not in options else ["mccfr-outcome"]}
    with pytest.raises(ConfigError, match=message):
        config_from({**grid, "options": options})


def test_a_misfit_start_creates_no_results_folder(tmp_path, capsys):
    config = tmp_path / "s.toml"
    config.write_text(
        'games = ["rps"]\nalgorithms = ["rm"]\niterations = [10]\nseeds = 1\n'
        '[options]\nstart = {"0" = [1, 0]}\n'
    )
    out = tmp_path / "results"
    assert main(["sweep", str(config), "--out", str(out), "--jobs", "1"]) == 2
    assert "needs 3 probabilities" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_pipe_or_a_device_is_refused_unread(tmp_path):
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    with pytest.raises(ReadError, match="not a regular file"):
        load_config(pipe)  # it blocked for ever
    if os.path.exists("/dev/zero"):
        with pytest.raises(ReadError, match="not a regular file"):
            load_config("/dev/zero")  # it filled memory


def test_the_api_checks_option_types_too():
    with pytest.raises(ConfigError, match="beta must be a number"):
        preset("discounted-rm", beta="1.5")


def test_a_parameter_goes_to_the_algorithms_that_use_it_and_none_is_refused():
    """A sweep's options are shared: each algorithm takes the parameters it uses (alpha:
    discounted RM's, not RM's), and one that no algorithm of the sweep uses is refused
    (RM's alpha was taken and ignored)."""
    grid = {**GRID, "games": ["rps"], "algorithms": ["rm", "discounted-rm"]}
    sweep = config_from({**grid, "options": {"alpha": 3.0}})
    assert sweep.options == {"alpha": 3.0}
    with pytest.raises(
        ConfigError, match=r"options.inertia: no algorithm of the sweep uses it \(rm, discounted-rm\)"
    ):
        config_from({**grid, "options": {"inertia": 0.1}})
