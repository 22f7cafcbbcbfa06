"""docs/architecture.md stays true: every file and every ``rmviz.…`` name it mentions exists
(a renamed or deleted module fails here, not in a reader's hands)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TEXT = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
OUTSIDE = {"shared/DESIGN.md"}  # beside the checkout (../shared), not in it


def test_every_file_it_names_exists():
    folders = ("rmviz", "tests", "docs", "packaging", "resources", ".ci")
    tracked = [path.relative_to(REPO).as_posix() for path in REPO.glob("*") if path.is_file()]
    tracked += [p.relative_to(REPO).as_posix() for f in folders for p in (REPO / f).rglob("*") if p.is_file()]
    named = set(re.findall(r"[\w./-]*\w\.(?:py|cu|sh|toml|md|txt)\b", TEXT)) - OUTSIDE
    missing = [name for name in named if not any(f == name or f.endswith("/" + name) for f in tracked)]
    assert not missing, f"docs/architecture.md names files that do not exist: {sorted(missing)}"


def resolves(dotted: str) -> bool:
    """``rmviz.a.b.c``: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        try:
            for name in parts[k:]:
                target = getattr(target, name)
        except AttributeError:
            return False
        return True
    return False


def test_every_module_and_name_it_mentions_exists():
    names = set(re.findall(r"\brmviz(?:\.\w+)+", TEXT))
    assert names, "the pattern found nothing"
    assert [name for name in sorted(names) if not resolves(name)] == []
