"""Before the window: can Qt show one here? One line saying what to do if not.

Qt aborts the process (a core dump, exit 134) when its platform plugin cannot load, and its
message names the wrong library: since Qt 6.5 it blames ``xcb-cursor0`` whichever of the
xcb plugin's libraries is missing. :func:`check` runs before the ``QApplication`` exists
and returns the one line to print instead (``None``: go ahead):

* no display at all (no ``DISPLAY``, no ``WAYLAND_DISPLAY``, no ``QT_QPA_PLATFORM``): how to
  get the window's picture (``--screenshot`` offscreen), figures (``rmviz export``) and
  numbers (``rmviz solve``) without one;
* a platform plugin Qt would try (``xcb``, ``wayland``) whose libraries are not all there,
  found with ``ldd``: the missing libraries and the ``apt-get install`` line that adds them.

Only Linux and the other ELF systems are checked; ``offscreen``, ``minimal`` and the other
platforms need no system library beyond Qt's own. Nothing here imports Qt: the caller passes
Qt's plugin directory.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

# the platform plugins that need the system's display libraries, and the variable that
# names their display
DISPLAY_VARIABLES = {"xcb": "DISPLAY", "wayland": "WAYLAND_DISPLAY", "wayland-egl": "WAYLAND_DISPLAY"}

# shared libraries whose Debian package is not their name and major version
_PACKAGES = {
    "libGLdispatch.so.0": "libglvnd0",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libz.so.1": "zlib1g",
    "libgcc_s.so.1": "libgcc-s1",
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$", re.MULTILINE)
_SONAME = re.compile(r"(lib.+?)\.so\.(\d+)(?:\..*)?")


def platforms(environ: Mapping[str, str]) -> list[str]:
    """The platform plugins Qt will try, in order: those ``QT_QPA_PLATFORM`` names
    (``"xcb;offscreen"``, ``"xcb:option"``), else Wayland first in a Wayland session, then
    xcb (Qt 6 on Linux)."""
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return [name.split(":")[0].strip() for name in chosen.split(";") if name.strip()]
    return ["wayland", "xcb"] if environ.get("WAYLAND_DISPLAY") else ["xcb"]


def missing_libraries(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` reports as ``not found``, in its order, each once."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that ships ``soname`` (``libxcb-icccm.so.4`` ->
    ``libxcb-icccm4``; Debian's rule: the library's name, then its major version, with a
    dash when the name ends in a digit)."""
    if soname in _PACKAGES:
        return _PACKAGES[soname]
    match = _SONAME.fullmatch(soname)
    if match is None:
        return soname
    name, major = match.group(1).lower(), match.group(2)
    return f"{name}-{major}" if name[-1].isdigit() else f"{name}{major}"


def run_ldd(library: Path) -> str | None:
    """``ldd``'s output for ``library``, or ``None`` when it cannot tell (no ``ldd``, not a
    library it can read)."""
    try:
        done = subprocess.run(["ldd", str(library)], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def platform_dirs(qt_plugins: Path, environ: Mapping[str, str]) -> list[Path]:
    """The directories Qt looks in for platform plugins, in order:
    ``QT_QPA_PLATFORM_PLUGIN_PATH``, each ``QT_PLUGIN_PATH`` entry's ``platforms``, then Qt's
    own ``qt_plugins/platforms``."""
    dirs = (
        [Path(environ["QT_QPA_PLATFORM_PLUGIN_PATH"])] if environ.get("QT_QPA_PLATFORM_PLUGIN_PATH") else []
    )
    dirs += [Path(p) / "platforms" for p in environ.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p]
    return [*dirs, qt_plugins / "platforms"]


def plugin_file(name: str, directories: Sequence[Path]) -> Path | None:
    """The shared library of platform plugin ``name`` (``libqxcb.so``), if there is one."""
    for directory in directories:
        path = directory / f"libq{name}.so"
        if path.is_file():
            return path
    return None


def install_hint(missing: Sequence[str], root: bool) -> str:
    """The command that installs the packages of the ``missing`` libraries."""
    packages = " ".join(dict.fromkeys(debian_package(soname) for soname in missing))
    return f"{'' if root else 'sudo '}apt-get install -y {packages}"


def no_display_message(game: str) -> str:
    """What to do without a display: the window offscreen, figures, numbers."""
    return (
        "rmviz: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set); "
        f"a picture of the window: QT_QPA_PLATFORM=offscreen rmviz {game} --screenshot window.png; "
        f"figures: rmviz export {game} --figure dashboard --out run.png; "
        f"numbers: rmviz solve {game} (see rmviz --help)"
    )


def missing_message(platform: str, missing: Sequence[str], root: bool) -> str:
    """Qt's ``platform`` plugin cannot load: which libraries are missing, how to add them."""
    return (
        f"rmviz: the window cannot open: Qt's {platform} platform plugin needs "
        f"{', '.join(missing)}, not installed; on Debian/Ubuntu: {install_hint(missing, root)} "
        "(README.md lists every library; without a window: rmviz --help)"
    )


def check(
    qt_plugins: Path,
    game: str = "rps-crash",
    environ: Mapping[str, str] = os.environ,
    system: str = sys.platform,
) -> str | None:
    """The one line to print instead of opening the window, or ``None`` when the window can
    open (or this cannot tell: another system, a platform that needs no display library, no
    ``ldd``). ``qt_plugins`` is Qt's plugin directory (``QLibraryInfo``'s ``PluginsPath``)."""
    if not system.startswith("linux") and "bsd" not in system:
        return None
    names = platforms(environ)
    if not all(name in DISPLAY_VARIABLES for name in names):
        return None  # offscreen, minimal, vnc, eglfs...: no display library to check
    with_display = [name for name in names if environ.get(DISPLAY_VARIABLES[name])]
    if not with_display:
        return no_display_message(game)
    directories = platform_dirs(qt_plugins, environ)
    problem: str | None = None
    for name in with_display:  # Qt takes the first that loads; xcb is the last resort
        plugin = plugin_file(name, directories)
        output = run_ldd(plugin) if plugin is not None else None
        missing = missing_libraries(output) if output is not None else []
        if not missing:
            return None  # Qt can load this one (or this cannot tell: let Qt try)
        problem = missing_message(name, missing, root=_is_root())
    return problem


def _is_root() -> bool:
    return os.name == "posix" and os.geteuid() == 0  # (the check runs on Linux only)
