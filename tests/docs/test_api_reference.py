"""The API reference (docs/api): Sphinx builds it from the docstrings with no warning, it
documents every public name with its public methods, and every example in them runs
(doctest), so the reference cannot say what the code does not do."""

from __future__ import annotations

import doctest
import inspect
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rmviz
import rmviz.sweep

SOURCE = Path(__file__).resolve().parents[2] / "docs" / "api"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def public() -> dict[str, Any]:
    """Every public name: the package root's ``__all__`` and ``rmviz.sweep``'s."""
    found = {f"rmviz.{name}": getattr(rmviz, name) for name in rmviz.__all__ if name != "__version__"}
    found |= {f"rmviz.sweep.{name}": getattr(rmviz.sweep, name) for name in rmviz.sweep.__all__}
    return found


def members(cls: type) -> dict[str, Any]:
    """A class's own public methods and properties (not its fields, not object's)."""
    kinds = (property, classmethod)
    return {
        name: value
        for name, value in vars(cls).items()
        if not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, kinds))
    }


def function(member: Any) -> Any:
    return member.fget if isinstance(member, property) else getattr(member, "__func__", member)


def examples(obj: Any) -> str:
    """The code of the examples in ``obj``'s docstring."""
    tests = doctest.DocTestParser().get_examples(inspect.getdoc(obj) or "")
    return "".join(example.source for example in tests)


CALLABLES = {name: obj for name, obj in public().items() if callable(obj)}


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_every_public_callable_has_an_example(name: str) -> None:
    obj = CALLABLES[name]
    assert examples(obj), f"{name}: its docstring has no example (>>>)"
    if not inspect.isclass(obj):
        return
    shown = examples(obj)
    for method, member in members(obj).items():
        assert inspect.getdoc(function(member)), f"{name}.{method} has no docstring: the reference skips it"
        if isinstance(member, property):
            assert f".{method}" in shown or examples(member.fget), f"{name}.{method}: no example reads it"
        else:
            used = f".{method}(" in shown
            assert used or examples(function(member)), f"{name}.{method}: no example calls it"


def doctests(obj: Any) -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(recurse=False)
    found = finder.find(obj, getattr(obj, "__qualname__", str(obj)), globs={})
    if inspect.isclass(obj):
        for name, member in members(obj).items():
            found += finder.find(function(member), f"{obj.__qualname__}.{name}", globs={})
    return [test for test in found if test.examples]


# Watch's example draws a frame at each of its steps (14 s): the default run stays under 5
# minutes, .ci/run runs it
SLOW = {"Watch"}


def marks(name: str) -> list[pytest.MarkDecorator]:
    """to_gambit_profile's example needs pygambit, the `reference` extra (the `gambit` mark)."""
    return [pytest.mark.gambit] * ("gambit" in name) + [pytest.mark.slow] * (name in SLOW)


CASES = [
    pytest.param(test, id=test.name, marks=marks(test.name))
    for obj in CALLABLES.values()
    for test in doctests(obj)
]


@pytest.mark.parametrize("test", CASES)
def test_examples_run(test: doctest.DocTest, tmp_path: Path) -> None:
    test.globs = {"rmviz": rmviz, "np": np, "tmp": tmp_path}
    test.globs |= {name: getattr(rmviz.sweep, name) for name in rmviz.sweep.__all__}
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)


def test_the_reference_builds_without_warnings(tmp_path: Path) -> None:
    """``python -m sphinx -W docs/api OUT``: every docstring parses, and every public name
    and member has its entry."""
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
    built = subprocess.run(
        [*command, str(SOURCE), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    for name, obj in public().items():
        package, _, short = name.rpartition(".")  # a constant: under the module defining it
        assert re.search(rf'id="{re.escape(package)}(\.\w+)?\.{short}"', page), (
            f"{name} is not in the reference"
        )
        if inspect.isclass(obj):
            for method in members(obj):
                assert f'id="{name}.{method}"' in page, f"{name}.{method} is not in the reference"
