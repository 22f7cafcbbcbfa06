"""What the windows tell the person: the status line of a first start and of a reopened
session's re-run, and the one-line message of an error (naming the file it came from)."""

from __future__ import annotations

import traceback
from pathlib import Path

from rmviz.errors import RmvizError

PREPARING = "Preparing the solvers (first start only)…"
REPLAYING = "Re-running the session"  # then the iteration reached and the one it steps to


def describe(error: BaseException, path: Path | None = None) -> str:
    """The message shown for ``error``, naming the file ``path`` where the error does not.
    An rmviz error's own message is a person's; anything else is unexpected, so its type is
    named and its traceback printed to stderr."""
    if isinstance(error, RmvizError):
        message = str(error)
    else:
        traceback.print_exception(error)
        message = f"cannot be shown ({type(error).__name__}: {error})"
    if path is not None and path.name not in message:
        message = f"{path}: {message}"
    return message
