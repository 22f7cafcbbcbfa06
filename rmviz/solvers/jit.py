"""numba for the compiled kernels of every family, or nothing when it is missing; numba is
imported when a kernel is first called, not before.

``jit`` compiles a function with the GIL released and numba's on-disk cache, so a new
process loads its kernels (~2 s) instead of compiling them (~12 s on an idle machine,
70-80 s under load); ``jit_reassociating`` may also reorder floating-point sums. Until a
kernel is first called or :func:`load` runs, a decorated function is a :class:`Kernel` and
numba (~0.2 s of CPU to import, ~0.15 s more to ready its CPU target) is not imported, so a
command that runs no kernel pays for neither (``rmviz solve`` on a small game: its first
:data:`SHORT_RUN` iterations take the array code, which plays the kernels' floats).
Without numba both leave the function as it is and ``AVAILABLE`` is False: the solvers run
their NumPy code. The cache is :func:`cache_dir` (``NUMBA_CACHE_DIR`` when set, else a
per-user folder per version of the solver sources), chosen at import, before numba reads
its configuration. Other versions' folders unused for 30 days are removed
(:func:`prune_stale_caches`). docs/packaging.md, "The first start", gives the reasons and
the start times.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import re
import shutil
import stat
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import platformdirs

STALE_AFTER = 30 * 24 * 3600.0  # seconds a version's cache may go unused before it is pruned
VERSION_FOLDER = re.compile(r"(source|bundle)-[0-9a-f]{16}")  # cache_dir's names, and only them


def cache_dir() -> Path:
    """Where the compiled kernels are cached: ``NUMBA_CACHE_DIR`` if set, else the
    per-user cache directory of rmviz, one folder per version of the solver sources.

    The per-user folder is ``~/.cache/rmviz/numba`` on Linux, ``~/Library/Caches/rmviz/numba``
    on macOS and ``%LOCALAPPDATA%\\rmviz\\Cache\\numba`` on Windows, whatever the launch
    directory and however rmviz was installed: numba's default, a ``__pycache__`` beside each
    source file, is not writable in a system-wide or read-only install and does not exist in
    the PyInstaller bundle. Each version of the solver sources caches in a folder named by
    their hash (:func:`solvers_digest`): numba checks a cached kernel against the file that
    defines it only, so a kernel compiled before an edit of a function it calls in another
    module (the greedy line search of ``weighting.py`` inside the matrix and tree kernels)
    would load unchanged. A frozen app (the bundle) has folders of its own (``bundle-``):
    numba stamps a frozen app's kernels with the executable, the same PyInstaller bootloader
    in every build."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = Path(platformdirs.user_cache_dir("rmviz", appauthor=False)) / "numba"
    kind = "bundle" if getattr(sys, "frozen", False) else "source"
    return base / f"{kind}-{solvers_digest()}"


def solvers_digest(root: Path = Path(__file__).parent) -> str:
    """A short hash of the solver sources under ``root`` (the kernels and what they call)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def choose_cache_dir() -> Path:
    """:func:`cache_dir`, given to numba through ``NUMBA_CACHE_DIR``; when rmviz chose it
    (the variable was not set), the stale folders of other versions beside it are pruned."""
    chosen_by_rmviz = not os.environ.get("NUMBA_CACHE_DIR")
    folder = cache_dir()
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if chosen_by_rmviz:
        prune_stale_caches(folder)
    return folder


def prune_stale_caches(current: Path, max_age: float = STALE_AFTER, now: float | None = None) -> list[Path]:
    """Mark ``current`` as used ``now`` (its modification time) and remove the sibling
    version folders (:data:`VERSION_FOLDER`: real directories, never symbolic links) in which
    nothing is younger than ``max_age`` seconds; the folders removed. Best effort: what
    cannot be read or removed stays, and no ``OSError`` escapes.

    Every upgrade leaves the old version's folder behind (1 to 16 MB each). ``current``'s
    time says when this version last started, so a version started in the last 30 days
    (:data:`STALE_AFTER`) keeps its kernels, running now or not (a process running for
    longer loses only the kernels it has not loaded yet: numba compiles them again and makes
    the folder anew), and a version run once a month at most pays one compiling (12 to 80 s)
    on its next start: the trade against the megabytes kept. The cost is one listing and
    one ``stat`` per sibling. numba writes its index files, by rename, into a folder per
    source directory one level down, so a sibling's own time changes only when one of those
    is made or the version starts: only a sibling old by its own time is walked, and it is
    kept if anything in it is younger (a kernel compiled since by an rmviz that does not
    prune). Other names are left alone, and pruning never fails an import."""
    now = time.time() if now is None else now
    cutoff = now - max_age
    try:
        os.utime(current, (now, now))
    except OSError:  # not made yet (numba makes it with the first kernel), or read-only
        pass
    removed: list[Path] = []
    try:
        with os.scandir(current.parent) as listing:
            siblings = [entry for entry in listing if _stale_candidate(entry, current.name, cutoff)]
    except OSError:
        return removed
    for entry in siblings:
        folder = Path(entry.path)
        if not _younger_inside(folder, cutoff):
            shutil.rmtree(folder, ignore_errors=True)
            if not os.path.lexists(folder):
                removed.append(folder)
    return removed


def _stale_candidate(entry: os.DirEntry[str], current: str, cutoff: float) -> bool:
    """Whether ``entry`` is another version's real cache folder, untouched since ``cutoff``."""
    if entry.name == current or not VERSION_FOLDER.fullmatch(entry.name):
        return False
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_mtime < cutoff


def _younger_inside(folder: Path, cutoff: float) -> bool:
    """Whether anything under ``folder`` (folders and files, links not followed) was modified
    after ``cutoff``; True too when part of it cannot be read (it is kept)."""
    stack = [folder]
    try:
        while stack:
            with os.scandir(stack.pop()) as listing:
                for entry in listing:
                    info = entry.stat(follow_symlinks=False)
                    if info.st_mtime >= cutoff:
                        return True
                    if stat.S_ISDIR(info.st_mode):
                        stack.append(Path(entry.path))
    except OSError:
        return True
    return False


choose_cache_dir()

AVAILABLE = importlib.util.find_spec("numba") is not None
# A command that asks (prepare: `rmviz solve`) and has not imported numba runs up to this
# many iterations in all of matrix games of up to ORDERED_MAX_ENTRIES payoff entries in the
# array code (the same floats; 80-200 us an iteration against ~0.35 s of CPU to import numba
# and load a kernel), then imports it: `rmviz solve rps -n 1000` stays instant. Any other
# process (the window, sweeps, notebooks: their runs report their speed) runs the kernels.
SHORT_RUN = 2_000
_short_left = SHORT_RUN  # what is left of this process's SHORT_RUN
_short_allowed = False  # whether prepare let this process run short runs in the array code
_STRICT = {"cache": True, "nogil": True}
# may reassociate floating-point sums (and contract a*b+c into one fused multiply-add): what
# lets LLVM keep several vector accumulators in a dot product, which a strict left-to-right
# sum forbids. Only for kernels whose tests allow last-bit differences (the matrix-vector
# products of large games, as BLAS itself sums in its own order); never "fast" as a whole,
# which would also assume no NaN or infinity.
_REASSOCIATING = {**_STRICT, "fastmath": {"reassoc", "contract"}}
_lock = threading.RLock()
_waiting: list[Kernel] = []  # kernels decorated before numba was imported
_loaded = False


class Kernel:
    """A function to compile with numba ``options``, whose dispatcher is made by :func:`load`
    (at its first call, or an attribute read: ``signatures``, ``py_func``...). Its name,
    docstring and ``__wrapped__`` are the function's, as a dispatcher's are."""

    def __init__(self, function: Any, options: dict[str, Any]) -> None:
        self.function, self.options = function, options
        self.dispatcher: Any = None
        functools.update_wrapper(self, function)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.loaded()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy, pickle and inspect probe these
            raise AttributeError(name)
        return getattr(self.loaded(), name)

    def loaded(self) -> Any:
        """numba's dispatcher of the function (importing numba on the first call)."""
        if self.dispatcher is None:
            load()
        return self.dispatcher


def loaded() -> bool:
    """Whether this process has imported numba (its import cost is paid: kernels are cheap)."""
    return "numba" in sys.modules


def load() -> None:
    """Import numba and make every waiting kernel's dispatcher; each module global that holds
    a :class:`Kernel` then holds its dispatcher, where a compiled caller looks its callees up
    (numba types a callee from the caller's globals when it compiles the caller)."""
    global _loaded
    with _lock:
        if _loaded or not AVAILABLE:
            return
        import numba

        numba.config.reload_config()  # numba may have been imported before the cache was chosen
        for kernel in _waiting:
            kernel.dispatcher = numba.njit(**kernel.options)(kernel.function)
        for name, module in list(sys.modules.items()):
            if name == "rmviz" or name.startswith("rmviz."):
                namespace = vars(module)
                for key, value in list(namespace.items()):
                    if isinstance(value, Kernel):
                        namespace[key] = value.dispatcher
        _waiting.clear()
        _loaded = True


COMPILING = "compiling the kernels (a first run after an install or an update: up to a minute, then cached)"


def announce_compiles(say: Callable[[], None]) -> None:
    """Call ``say()`` once, when numba first starts compiling in this process (a first run
    after an install or an update compiles for up to a minute: a command says so rather
    than sit silent); nothing where numba is not loaded (a short run's array code)."""
    if not loaded():
        return
    from numba.core import event

    said: list[bool] = []

    class FirstCompile(event.Listener):
        def on_start(self, _event: Any) -> None:
            if not said:
                said.append(True)
                say()

        def on_end(self, _event: Any) -> None:
            pass

    event.register("numba:compile", FirstCompile())


def short_run(iterations: int) -> bool:
    """Whether ``iterations`` iterations of a small matrix game may run in the array code
    instead of a kernel: :func:`prepare` allowed it, numba is not imported, and they fit in
    what is left of the process's :data:`SHORT_RUN` (they are counted against it)."""
    global _short_left
    with _lock:
        if not _short_allowed or loaded() or iterations > _short_left:
            return False
        _short_left -= iterations
        return True


def prepare(iterations: int) -> None:
    """A command about to run ``iterations`` iterations and exit (``rmviz solve``): when they
    fit in what is left of :data:`SHORT_RUN` and numba is not imported, small matrix games
    may run them in the array code (:func:`short_run`); otherwise numba is loaded now, before
    a clock starts, not inside the run."""
    global _short_allowed
    with _lock:
        if iterations <= _short_left and not loaded():
            _short_allowed = True
            return
    load()


def _compiler(options: dict[str, Any]) -> Any:
    def compile_later(function: Any) -> Any:
        if not AVAILABLE:
            return function
        with _lock:
            if _loaded:
                import numba

                return numba.njit(**options)(function)
            kernel = Kernel(function, options)
            _waiting.append(kernel)
            return kernel

    return compile_later


jit: Any = _compiler(_STRICT)
# inlined into its callers by numba itself (a small helper of a hot loop: a call passing
# arrays costs more than the helper's work)
jit_inline: Any = _compiler({**_STRICT, "inline": "always"})
jit_reassociating: Any = _compiler(_REASSOCIATING)
