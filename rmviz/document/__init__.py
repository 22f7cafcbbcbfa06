"""A game being edited: undo/redo history, modified flag, cell parsing (no Qt)."""

from __future__ import annotations

from rmviz.document.cells import format_cell, parse_cell
from rmviz.document.game_document import GameDocument
from rmviz.document.tree_document import TreeDocument

__all__ = ["GameDocument", "TreeDocument", "format_cell", "parse_cell"]
