"""Compiled inner loop for two-player games on the CPU (placeholder until written)."""
from __future__ import annotations
from typing import Any
def kernel_for(solver: Any) -> None:
    return None
