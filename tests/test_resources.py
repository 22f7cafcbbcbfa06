"""The example games (rmviz/examples/games) are the catalog's; the icon is package data (issue 13)."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from rmviz import resources
from rmviz.examples import GAMES, folder
from rmviz.formats import read_game_file
from rmviz.games.catalog import CATALOG

EXAMPLES = Path(str(folder(GAMES)))


@pytest.mark.parametrize("path", sorted(EXAMPLES.iterdir()), ids=lambda path: path.name)
def test_each_example_is_its_catalog_game(path):
    game = read_game_file(path)
    expected = CATALOG[path.stem].build()
    assert game.title == expected.title and game.n_players == expected.n_players
    if hasattr(game, "payoffs"):
        np.testing.assert_array_equal(game.payoffs, expected.payoffs)


@pytest.mark.parametrize("size", resources.ICON_SIZES)
def test_the_icon_is_package_data_in_every_size(size):
    png = resources.icon_png(size)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (size, size)
