"""Before the window: a missing display library or no display at all is one line and exit
status 2, never Qt's abort (issue 13)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rmviz.ui import preflight

REPO = Path(__file__).resolve().parents[2]

# ldd on PySide6 6.11's libqxcb.so with libxcb-icccm4 and libxcb-keysyms1 removed (abridged)
LDD_OUTPUT = """\
\tlinux-vdso.so.1 (0x00007ffd6a5f2000)
\tlibQt6XcbQpa.so.6 => /venv/lib/python3.11/site-packages/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f0c1e3d1000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007f0c1e3c2000)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007f0c1e3f4000)
"""

# every library outside Qt that ldd lists for libqxcb.so, and its Debian package (checked
# with dpkg -S on Debian 12)
XCB_PLUGIN_LIBRARIES = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLdispatch.so.0": "libglvnd0",
    "libGLX.so.0": "libglx0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libpng16.so.16": "libpng16-16",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb.so.1": "libxcb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libz.so.1": "zlib1g",
}


@pytest.fixture
def qt_plugins(tmp_path):
    """A Qt plugin directory with a (fake) xcb platform plugin."""
    (tmp_path / "platforms").mkdir()
    (tmp_path / "platforms" / "libqxcb.so").write_bytes(b"\x7fELF")
    return tmp_path


def test_ldd_output_gives_the_missing_libraries_once_in_order():
    assert preflight.missing_libraries(LDD_OUTPUT) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert preflight.missing_libraries("\tlibc.so.6 => /lib/libc.so.6 (0x1)\n") == []


@pytest.mark.parametrize(("soname", "package"), sorted(XCB_PLUGIN_LIBRARIES.items()))
def test_each_library_maps_to_its_debian_package(soname, package):
    assert preflight.debian_package(soname) == package


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, ["xcb"]),
        ({"DISPLAY": ":0"}, ["xcb"]),
        ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, ["wayland", "xcb"]),
        ({"QT_QPA_PLATFORM": "offscreen"}, ["offscreen"]),
        ({"QT_QPA_PLATFORM": "xcb:nomitshm;offscreen"}, ["xcb", "offscreen"]),
    ],
)
def test_the_platforms_qt_tries(environ, expected):
    assert preflight.platforms(environ) == expected


def test_a_missing_library_is_one_line_with_the_apt_command(monkeypatch, qt_plugins):
    monkeypatch.setattr(preflight, "run_ldd", lambda path: LDD_OUTPUT)
    message = preflight.check(qt_plugins, "kuhn", {"DISPLAY": ":0"}, "linux")
    assert message is not None and "\n" not in message
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in message
    assert "apt-get install -y libxcb-icccm4 libxcb-keysyms1" in message
    assert message.startswith("rmviz: the window cannot open: Qt's xcb platform plugin needs")


def test_no_display_says_what_works_without_one(qt_plugins):
    message = preflight.check(qt_plugins, "kuhn", {}, "linux")
    assert message is not None and "\n" not in message
    assert "QT_QPA_PLATFORM=offscreen rmviz kuhn --screenshot" in message
    assert "rmviz export kuhn" in message and "rmviz solve kuhn" in message


@pytest.mark.parametrize(
    ("environ", "system"),
    [
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux"),  # needs no display library
        ({"QT_QPA_PLATFORM": "minimal"}, "linux"),
        ({}, "darwin"),  # cocoa and windows plugins: not checked
        ({}, "win32"),
    ],
)
def test_platforms_without_display_libraries_pass(monkeypatch, qt_plugins, environ, system):
    monkeypatch.setattr(preflight, "run_ldd", lambda path: LDD_OUTPUT)
    assert preflight.check(qt_plugins, "rps", environ, system) is None


def test_a_loadable_plugin_or_an_unknown_answer_passes(monkeypatch, qt_plugins):
    monkeypatch.setattr(preflight, "run_ldd", lambda path: "\tlibc.so.6 => /lib/libc.so.6 (0x1)\n")
    assert preflight.check(qt_plugins, "rps", {"DISPLAY": ":0"}, "linux") is None
    monkeypatch.setattr(preflight, "run_ldd", lambda path: None)  # no ldd: let Qt try
    assert preflight.check(qt_plugins, "rps", {"DISPLAY": ":0"}, "linux") is None


def test_wayland_first_then_xcb(monkeypatch, qt_plugins):
    (qt_plugins / "platforms" / "libqwayland.so").write_bytes(b"\x7fELF")
    broken = {"libqwayland.so": "\tlibwayland-client.so.0 => not found\n", "libqxcb.so": LDD_OUTPUT}
    monkeypatch.setattr(preflight, "run_ldd", lambda path: broken[path.name])
    both = {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}
    assert "xcb platform plugin" in preflight.check(qt_plugins, "rps", both, "linux")
    broken["libqxcb.so"] = ""  # xcb loads: Qt falls back to it
    assert preflight.check(qt_plugins, "rps", both, "linux") is None
    message = preflight.check(qt_plugins, "rps", {"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert "wayland platform plugin needs libwayland-client.so.0" in message
    assert "libwayland-client0" in message


def test_the_plugin_directories_follow_qts_variables(tmp_path):
    environ = {"QT_QPA_PLATFORM_PLUGIN_PATH": "/p", "QT_PLUGIN_PATH": os.pathsep.join(["/a", "/b"])}
    assert preflight.platform_dirs(tmp_path, environ) == [
        Path("/p"),
        Path("/a/platforms"),
        Path("/b/platforms"),
        tmp_path / "platforms",
    ]


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("ldd") is None, reason="ldd")
def test_this_machines_xcb_plugin_loads():
    """The real plugin, the real ldd: CI installs every library the README lists."""
    from PySide6.QtCore import QLibraryInfo

    plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
    assert preflight.check(plugins, "rps", {"DISPLAY": ":0"}, "linux") is None


def run_rmviz(tmp_path, environ):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "DISPLAY", "WAYLAND"))}
    env.update(environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "rmviz", "kuhn"], env=env, cwd=tmp_path, capture_output=True, text=True
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check runs on Linux")
def test_the_app_prints_the_line_and_exits_2_when_a_library_is_missing(tmp_path):
    """``rmviz`` with an ``ldd`` that reports two xcb libraries missing (first on PATH)."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "ldd").write_text(f"#!/bin/sh\ncat <<'END'\n{LDD_OUTPUT}END\n")
    (fake / "ldd").chmod(0o755)
    done = run_rmviz(tmp_path, {"DISPLAY": ":99", "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"})
    assert done.returncode == 2
    assert done.stdout == "" and done.stderr.count("\n") == 1
    assert "apt-get install -y libxcb-icccm4 libxcb-keysyms1" in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check runs on Linux")
def test_the_app_without_a_display_says_what_to_do(tmp_path):
    done = run_rmviz(tmp_path, {})
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "no display" in done.stderr and "--screenshot" in done.stderr
