"""Atomic file writes: a save either replaces the file whole or leaves the old one.

Every file rmviz writes (games, run data, figures, sessions, autosaves) goes through
:func:`atomic_write`: the content is written to a temporary file in the same folder, flushed
and ``fsync``-ed, then renamed over the target (``os.replace``, atomic on POSIX and Windows
within one file system). A crash, a full disk or an exception in the middle leaves the
previous file untouched and no temporary file behind. The folder is fsync-ed after the rename
where the platform allows it, so the rename itself survives a power cut.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from rmviz.errors import FormatError


def _fsync_folder(folder: Path) -> None:
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:  # Windows cannot open a folder; the rename is already durable there
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; when the block ends normally it replaces ``path``.

    For writers that want a file name (matplotlib's ``savefig``, Qt's ``QImage.save``). If the
    block raises, the temporary file is removed and ``path`` is left as it was.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".tmp{path.suffix}", dir=folder)
    except OSError as error:
        raise FormatError(f"{path}: cannot write ({error.strerror or error})") from None
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        with temporary.open("rb+") as written:
            os.fsync(written.fileno())
        if path.exists():
            with contextlib.suppress(OSError):
                os.chmod(temporary, path.stat().st_mode & 0o7777)
        else:
            os.chmod(temporary, 0o666 & ~_UMASK)
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise FormatError(
            f"{path}: cannot write ({error.strerror or error}); the old file is unchanged"
        ) from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _fsync_folder(folder)


def atomic_write(path: str | Path, write: Callable[[IO[Any]], object], *, binary: bool = False) -> None:
    """Call ``write(handle)`` on a temporary file beside ``path``, then rename it over ``path``.

    Text handles are UTF-8 with ``newline=""`` (the writer chooses line ends, as the csv module
    wants). Raises :class:`FormatError` with the reason when the file cannot be written.
    """
    with atomic_path(path) as temporary:
        if binary:
            with temporary.open("wb") as handle:
                write(handle)
        else:
            with temporary.open("w", encoding="utf-8", newline="") as handle:
                write(handle)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically."""
    atomic_write(path, lambda handle: handle.write(text))


def _read_umask() -> int:
    """The process umask, read once at import (``os.umask`` sets it too, so not from threads)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _read_umask()
