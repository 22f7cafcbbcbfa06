"""The desktop bundle does everything the app does: nothing rmviz imports is in the
PyInstaller spec's ``excludes`` (issue 27: matplotlib was, so the bundle could not export a
figure). The import graph is walked from the source: every module under ``rmviz/`` and what
it imports (``import``, ``from ... import``, ``importlib.import_module``/``find_spec`` of a
literal name), then, for each distribution those imports come from, the distributions it
requires (its metadata, markers evaluated here), recursively, and their top-level modules."""

from __future__ import annotations

import ast
import re
import sys
from functools import cache
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "packaging" / "rmviz.spec"
PACKAGE = ROOT / "rmviz"
# calls whose first argument, a string literal, names a module rmviz imports at run time
DYNAMIC_IMPORTS = {"import_module", "find_spec", "_require"}


def imported_by(source: str) -> set[str]:
    """The absolute module names a module's source imports (relative imports are rmviz's)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names if alias.name != "*")
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = node.func
            called = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
            if called in DYNAMIC_IMPORTS and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
    return {name for name in names if name != "__future__"}


@cache
def rmviz_imports() -> frozenset[str]:
    """Every module the files under rmviz/ import, rmviz's own left out."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        names |= imported_by(path.read_text(encoding="utf-8"))
    return frozenset(name for name in names if name.split(".")[0] != "rmviz")


@cache
def _owners() -> dict[str, list[str]]:
    """Top-level module -> the distributions that install it (a scan of every installed one)."""
    return dict(metadata.packages_distributions())


@cache
def _top_level_modules() -> dict[str, set[str]]:
    """Distribution name (normalised) -> the top-level modules it installs."""
    modules: dict[str, set[str]] = {}
    for module, distributions in _owners().items():
        for distribution in distributions:
            modules.setdefault(_normalise(distribution), set()).add(module)
    return modules


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirements(distribution: str) -> list[str]:
    """The distributions ``distribution`` requires here (no extras), by normalised name."""
    from packaging.requirements import Requirement

    try:
        requires = metadata.requires(distribution) or []
    except metadata.PackageNotFoundError:
        return []
    found = []
    for line in requires:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            found.append(_normalise(requirement.name))
    return found


@cache
def import_closure() -> frozenset[str]:
    """rmviz's imports and the top-level modules of every distribution they need, recursively
    through the distributions' requirements. A module not installed here (CuPy without a GPU)
    is kept by its name."""
    direct = rmviz_imports()
    modules = set(direct)
    pending = [_normalise(d) for name in direct for d in _owners().get(name.split(".")[0], [])]
    seen: set[str] = set()
    while pending:
        distribution = pending.pop()
        if distribution in seen:
            continue
        seen.add(distribution)
        modules |= _top_level_modules().get(distribution, set())
        pending.extend(_requirements(distribution))
    return frozenset(modules)


def spec_excludes(text: str) -> list[str]:
    """The ``excludes=[...]`` list of the spec's ``Analysis(...)`` call."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Analysis":
            for keyword in node.keywords:
                if keyword.arg == "excludes":
                    return list(ast.literal_eval(keyword.value))
    return []


def conflicts(excludes: list[str], modules: frozenset[str] | set[str]) -> list[str]:
    """The excludes that take away a module in ``modules``: the module itself, or a package
    above it (excluding ``a`` removes ``a.b``; excluding ``a.c`` leaves ``a.b`` alone)."""
    return sorted(
        exclude
        for exclude in excludes
        if any(module == exclude or module.startswith(exclude + ".") for module in modules)
    )


def test_the_walk_sees_what_rmviz_needs():
    """The walk itself: the direct imports, the dynamic ones, and a dependency's dependency."""
    direct = rmviz_imports()
    assert {"numpy", "matplotlib", "PySide6", "pyqtgraph", "numba", "tomllib"} <= {
        name.split(".")[0] for name in direct
    }
    assert {"pyarrow.parquet", "joblib", "distributed", "ipywidgets"} <= direct  # dynamic imports
    closure = import_closure()
    assert {"llvmlite", "PIL", "kiwisolver", "shiboken6"} <= closure  # numba's, matplotlib's, PySide6's


def test_an_exclude_of_an_imported_module_is_caught():
    spec = 'a = Analysis(["x.py"], excludes=["tkinter", "matplotlib", "scipy.tests"])'
    assert spec_excludes(spec) == ["tkinter", "matplotlib", "scipy.tests"]
    assert conflicts(spec_excludes(spec), {"matplotlib.figure", "scipy", "numpy"}) == ["matplotlib"]


def test_the_old_spec_would_fail():
    """The spec before issue 27 excluded matplotlib (and CuPy, rmviz's GPU backend)."""
    old = ["tkinter", "matplotlib", "IPython", "pytest", "cupy", "PyQt5", "PyQt6", "PySide2"]
    assert {"matplotlib", "cupy"} <= set(conflicts(old, import_closure()))


def test_the_bundle_excludes_nothing_rmviz_imports():
    excludes = spec_excludes(SPEC.read_text(encoding="utf-8"))
    assert excludes, "the spec's Analysis(excludes=[...]) was not found"
    closure = import_closure()
    assert conflicts(excludes, closure) == [], (
        "packaging/rmviz.spec excludes modules rmviz imports (directly or through a dependency); "
        "the bundle would fail where they are used"
    )


def test_the_bundle_carries_matplotlibs_canvas_of_each_format_rmviz_writes():
    """matplotlib imports the canvas of a format by name when it saves, out of PyInstaller's
    sight: the spec names each one the figures need (PNG, SVG, PDF) as a hidden import."""
    from matplotlib.backend_bases import _default_backends

    from rmviz.figures.registry import IMAGE_SUFFIXES

    named = {
        node.value
        for node in ast.walk(ast.parse(SPEC.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    for suffix in IMAGE_SUFFIXES:
        canvas = _default_backends[suffix[1:]]  # a module name, or its class once one was used
        assert (canvas if isinstance(canvas, str) else canvas.__module__) in named, suffix


def test_stdlib_modules_rmviz_imports_count_too():
    """Excluding a standard-library module rmviz imports (tomllib for sweeps) breaks the bundle
    as surely as a third-party one."""
    stdlib = {name for name in rmviz_imports() if name.split(".")[0] in sys.stdlib_module_names}
    assert {"tomllib", "multiprocessing", "json"} <= {name.split(".")[0] for name in stdlib}
    assert conflicts(["tomllib"], import_closure()) == ["tomllib"]
