"""A game being edited: undo/redo history, modified flag, cell parsing (no Qt)."""

from __future__ import annotations

from rmviz.document.cells import format_cell, parse_cell
from rmviz.document.game_document import GameDocument

__all__ = ["GameDocument", "format_cell", "parse_cell"]
