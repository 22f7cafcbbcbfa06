"""Where numba caches the compiled kernels: a per-user directory, or ``NUMBA_CACHE_DIR``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rmviz.solvers import jit


def test_the_cache_is_the_variable_when_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert jit.cache_dir() == tmp_path


def test_the_cache_is_per_user_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    path = jit.cache_dir()
    assert path.parent.name == "numba" and path.name.startswith("source-") and "rmviz" in path.parts
    assert path.is_absolute() and not path.is_relative_to(Path(jit.__file__).parents[2])


def test_an_edit_of_any_solver_source_gives_a_fresh_cache(tmp_path: Path) -> None:
    """numba checks a cached kernel against its own file only: an edit of the greedy line
    search in weighting.py must not load the matrix kernel compiled before it."""
    solvers = Path(jit.__file__).parent
    copy = tmp_path / "solvers"
    shutil.copytree(solvers, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert jit.solvers_digest(copy) == jit.solvers_digest(solvers)
    weighting = copy / "weighting.py"
    weighting.write_text(weighting.read_text() + "\n# an edit\n")
    assert jit.solvers_digest(copy) != jit.solvers_digest(solvers)


def test_a_frozen_app_caches_per_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba stamps a frozen app's kernels with its executable, not their source."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    path = jit.cache_dir()
    assert path.parent.name == "numba" and path.name.startswith("bundle-")
    assert path == jit.cache_dir()  # the same build, the same directory


@pytest.mark.slow
@pytest.mark.skipif(not jit.AVAILABLE, reason="needs numba")
def test_kernels_are_cached_there_whatever_the_launch_directory(tmp_path: Path) -> None:
    """A function compiled with ``jit`` in a process started elsewhere, where numba was
    imported before rmviz, is cached in the per-user directory (here under a fresh
    ``XDG_CACHE_HOME``)."""
    (tmp_path / "kernel.py").write_text(
        "import numba\nfrom rmviz.solvers.jit import jit\n\n@jit\ndef twice(x):\n    return 2 * x\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(Path(jit.__file__).parents[2])])
    launch = tmp_path / "elsewhere"
    launch.mkdir()
    subprocess.run(
        [sys.executable, "-c", "import kernel; assert kernel.twice(21) == 42"],
        cwd=launch,
        env=env,
        check=True,
    )
    cached = list((tmp_path / "cache" / "rmviz" / "numba").rglob("kernel.twice-*.nbi"))
    assert len(cached) == 1
    assert not list(tmp_path.rglob("__pycache__/*.nbi"))


DAY = 24 * 3600.0
NOW = 2_000_000_000.0  # a fixed "now" (2033): every age below is relative to it
DIGESTS = {name: f"{index:016x}" for index, name in enumerate(("current", "young", "old", "old2", "link"))}


def version_folder(base: Path, name: str, age_days: float, kind: str = "source", now: float = NOW) -> Path:
    """A version's cache folder as numba fills it (a folder per source directory, its index
    and data files), everything last modified ``age_days`` before ``now``."""
    folder = base / f"{kind}-{DIGESTS[name]}"
    inner = folder / "matrix_0409ac2e9d1609ffadc5831bb11dd20de1a9de52"
    inner.mkdir(parents=True)
    for file in ("kernels.step-120.py311.nbi", "kernels.step-120.py311.1.nbc"):
        (inner / file).write_bytes(b"cached")
    age(folder, age_days, now)
    return folder


def age(path: Path, days: float, now: float = NOW) -> None:
    """Everything under ``path`` and ``path`` itself (links: not what they point to)
    modified ``days`` before ``now``."""
    when = now - days * DAY
    for inner in sorted(path.rglob("*"), reverse=True):
        os.utime(inner, (when, when), follow_symlinks=False)
    os.utime(path, (when, when), follow_symlinks=False)


def test_stale_version_folders_are_pruned_and_nothing_else(tmp_path: Path) -> None:
    base = tmp_path / "numba"
    current = version_folder(base, "current", 400)  # this version, not started for long: kept
    young = version_folder(base, "young", 29)
    old = version_folder(base, "old", 31)
    old_bundle = version_folder(base, "old2", 200, kind="bundle")
    folders = [  # not version folders: a cache of before version folders, names of others
        base / "matrix_0409ac2e9d1609ffadc5831bb11dd20de1a9de52",
        base / f"source-{DIGESTS['old']}.bak",
        base / "source-12",
        base / f"Source-{DIGESTS['old2']}",
    ]
    files = [base / "notes.txt", base / f"bundle-{'f' * 16}"]  # the second: a version's name
    for folder in folders:
        folder.mkdir()
    for file in files:
        file.write_text("mine")
    unrelated = folders + files
    for path in unrelated:
        age(path, 365)

    removed = jit.prune_stale_caches(current, now=NOW)

    assert sorted(removed) == sorted([old, old_bundle])
    assert not old.exists() and not old_bundle.exists()
    assert young.is_dir() and len(list(young.rglob("*"))) == 3
    assert current.is_dir() and current.stat().st_mtime == NOW  # used now: what the age rule reads
    assert all(path.exists() for path in unrelated)


def test_a_folder_old_by_its_own_time_with_a_fresh_kernel_inside_is_kept(tmp_path: Path) -> None:
    """numba writes its files one level down: an rmviz that does not prune compiled a kernel
    there a day ago; the folder's own time is older than the limit."""
    base = tmp_path / "numba"
    current = version_folder(base, "current", 0)
    old = version_folder(base, "old", 90)
    (fresh,) = old.rglob("*.nbi")
    os.utime(fresh, (NOW - DAY, NOW - DAY))
    assert jit.prune_stale_caches(current, now=NOW) == [] and fresh.exists()
    assert jit.prune_stale_caches(current, now=NOW + 30 * DAY) == [old] and not old.exists()


def test_symbolic_links_are_never_followed(tmp_path: Path) -> None:
    base = tmp_path / "numba"
    current = version_folder(base, "current", 0)
    elsewhere = version_folder(tmp_path / "elsewhere", "link", 100)  # the person's own files
    link = base / elsewhere.name  # a version folder's name, but a link
    link.symlink_to(elsewhere, target_is_directory=True)
    old = version_folder(base, "old", 100)
    (old / "outside").symlink_to(elsewhere, target_is_directory=True)  # a link inside a stale folder
    age(old, 100)
    age(link, 100)

    assert jit.prune_stale_caches(current, now=NOW) == [old]
    assert link.is_symlink() and not old.exists()
    assert len(list(elsewhere.rglob("*"))) == 3  # nothing behind either link was touched


def test_pruning_never_fails(tmp_path: Path) -> None:
    missing = tmp_path / "no-cache-yet" / f"source-{DIGESTS['current']}"
    assert jit.prune_stale_caches(missing, now=NOW) == []  # no cache folder at all
    (tmp_path / "a-file").write_text("")
    assert jit.prune_stale_caches(tmp_path / "a-file" / "source-0", now=NOW) == []


def test_a_stale_folder_that_cannot_be_read_through_is_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    base = tmp_path / "numba"
    current = version_folder(base, "current", 0)
    old = version_folder(base, "old", 100)
    inner = next(old.iterdir())
    scandir = os.scandir

    def refusing(path: Any) -> Any:  # as a folder of another user's (chmod 0; root reads anything)
        if Path(path) == inner:
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(jit.os, "scandir", refusing)
    assert jit.prune_stale_caches(current, now=NOW) == [] and old.exists()


def test_rmviz_prunes_only_beside_a_folder_it_chose(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """At import (choose_cache_dir): beside the per-user folder, never in the person's own
    NUMBA_CACHE_DIR, whose neighbours are none of rmviz's business."""
    monkeypatch.setattr(jit.platformdirs, "user_cache_dir", lambda *_a, **_k: str(tmp_path / "user"))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    base = tmp_path / "user" / "numba"
    old = version_folder(base, "old", 100, now=time.time())
    chosen = jit.choose_cache_dir()
    assert chosen.parent == base and os.environ["NUMBA_CACHE_DIR"] == str(chosen) and not old.exists()

    own = tmp_path / "own"
    beside = version_folder(own, "old", 100, now=time.time())
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(own / f"source-{DIGESTS['current']}"))
    assert jit.choose_cache_dir() == own / f"source-{DIGESTS['current']}" and beside.is_dir()
