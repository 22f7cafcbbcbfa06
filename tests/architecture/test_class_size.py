"""No class in rmviz does everything: each has at most :data:`MOST_METHODS` methods of its
own (functions defined in its body, properties and nested helpers' outer defs included), so
a window holds small parts (run control, files, sessions, presentation) instead of growing."""

from __future__ import annotations

import ast
from pathlib import Path

import rmviz

MOST_METHODS = 30
PACKAGE = Path(rmviz.__file__).parent


def method_counts(source: str) -> dict[str, int]:
    """The methods each class in ``source`` defines in its own body, by class name."""
    counts = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            defs = (ast.FunctionDef, ast.AsyncFunctionDef)
            counts[node.name] = sum(isinstance(item, defs) for item in node.body)
    return counts


def test_the_counter_counts_a_class_own_methods():
    source = "class A:\n    def f(self): pass\n    async def g(self): pass\n    x = 1\n" + (
        "class B(A):\n    def h(self):\n        def inner(): pass\n"
    )
    assert method_counts(source) == {"A": 2, "B": 1}


def test_no_class_has_more_than_30_methods():
    large = [
        f"{path.relative_to(PACKAGE.parent).as_posix()}: {name} has {count}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for name, count in method_counts(path.read_text(encoding="utf-8")).items()
        if count > MOST_METHODS
    ]
    assert large == [], f"classes above {MOST_METHODS} methods (split them along their seams): {large}"
