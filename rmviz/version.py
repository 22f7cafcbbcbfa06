"""The installed rmviz's version, at the bottom of the layers: every layer may ask it.

``pyproject.toml`` is its one source; an editable install's metadata says it too, and a source
tree that was never installed says ``0+unknown``. Read on first use (importing
``importlib.metadata`` costs ~30 ms of every command's start otherwise)."""

from __future__ import annotations

from functools import cache


@cache
def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("rmviz")
    except PackageNotFoundError:
        return "0+unknown"
