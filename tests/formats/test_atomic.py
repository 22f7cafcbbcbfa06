"""Saves are atomic: a failure in the middle leaves the old file and no temporary behind."""

from __future__ import annotations

import os

import pytest

from rmviz.atomic import atomic_path, atomic_write, atomic_write_text
from rmviz.errors import FormatError
from rmviz.formats import read_game_file, write_game_file
from rmviz.games.catalog import catalog_game


def test_a_write_replaces_the_file_whole(tmp_path):
    target = tmp_path / "game.txt"
    atomic_write_text(target, "old")
    atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert os.listdir(tmp_path) == ["game.txt"]


def test_a_writer_that_fails_midway_leaves_the_old_file(tmp_path):
    target = tmp_path / "game.json"
    write_game_file(catalog_game("rps"), target)
    before = target.read_bytes()

    def half_then_crash(handle):
        handle.write('{"truncated": ')
        raise RuntimeError("disk unplugged")

    with pytest.raises(RuntimeError):
        atomic_write(target, half_then_crash)
    assert target.read_bytes() == before
    assert os.listdir(tmp_path) == ["game.json"]
    assert read_game_file(target).title == catalog_game("rps").title


def test_a_full_disk_is_a_clear_error_and_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "game.json"
    target.write_text("the user's game")
    real_fsync = os.fsync

    def full(descriptor):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(FormatError, match=r"No space left on device.*old file is unchanged"):
        atomic_write_text(target, "new content")
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert target.read_text() == "the user's game"
    assert os.listdir(tmp_path) == ["game.json"]


def test_an_unwritable_folder_is_a_format_error(tmp_path):
    with pytest.raises(FormatError, match="cannot write"):
        atomic_write_text(tmp_path / "missing" / "game.json", "x")


def test_the_existing_permissions_are_kept(tmp_path):
    target = tmp_path / "game.json"
    target.write_text("x")
    target.chmod(0o640)
    atomic_write_text(target, "y")
    assert target.stat().st_mode & 0o777 == 0o640


def test_atomic_path_gives_writers_a_file_name(tmp_path):
    target = tmp_path / "figure.png"
    with atomic_path(target) as temporary:
        assert temporary.parent == tmp_path and temporary != target
        temporary.write_bytes(b"\x89PNG")
    assert target.read_bytes() == b"\x89PNG"
