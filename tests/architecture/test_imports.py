"""The house's shape, checked over the import graph: no import cycle anywhere in rmviz
(imports under ``TYPE_CHECKING`` count), and the family seam decided in one place."""

from __future__ import annotations

import re
from pathlib import Path

import grimp
import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "rmviz"


def strongly_connected_components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (no recursion proportional to the graph's depth)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components


def module_graph() -> dict[str, set[str]]:
    graph = grimp.build_graph("rmviz", include_external_packages=False)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def test_the_cycle_finder_finds_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    cycles = [sorted(c) for c in strongly_connected_components(graph) if len(c) > 1]
    assert cycles == [["a", "b", "c"]]


def test_no_import_cycle_in_rmviz():
    graph = module_graph()
    assert "rmviz.solvers.registry" in graph and "rmviz.ui.app" in graph
    cycles = [sorted(c) for c in strongly_connected_components(graph) if len(c) > 1]
    self_imports = [m for m, imported in graph.items() if m in imported]
    assert cycles == [] and self_imports == []


# Names whose isinstance/hasattr checks decide a game family; only the registry asks.
FAMILY_TYPES = (
    "NormalFormGame",
    "ExtensiveFormGame",
    "RegretMinimizer",
    "CFRSolver",
    "MatrixSnapshot",
    "TreeSnapshot",
    "MatrixConfig",
    "CFRConfig",
)
# Layers above the solvers (games and formats sit below them and cannot ask the registry).
# figures/ is not listed: style.py's getattr(text, "rmviz_words", None) reads a matplotlib
# text, not a family (test_families.py scans figures for family names).
ABOVE_SOLVERS = ("runner", "ui", "cli.py", "bench.py", "document", "api.py", "sweep")


@pytest.mark.parametrize("part", ABOVE_SOLVERS)
def test_no_family_checks_outside_the_registry(part):
    root = PACKAGE / part
    files = [root] if root.is_file() else sorted(root.rglob("*.py"))
    pattern = re.compile(
        rf"isinstance\([^)]*\b({'|'.join(FAMILY_TYPES)})\b|hasattr\(|getattr\([^)]*,\s*None\)"
    )
    found = [
        f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []
