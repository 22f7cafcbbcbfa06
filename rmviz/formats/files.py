"""Reading files with the care every reader of rmviz takes: regular files only, sizes
checked before reading, every refusal a :class:`~rmviz.errors.ReadError` naming the file.

Two ways in: :func:`read_text_file` reads a whole file of at most :data:`MAX_FILE_BYTES`
(every format's readers but one take text); :func:`open_regular_file` opens a file of any
size for a reader that streams it (.efg files, :func:`~rmviz.formats.efg.read_efg_file`),
whose memory is then bounded by what it builds, not by the file's size.
"""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path
from typing import Any, BinaryIO

from rmviz.errors import ReadError

MAX_FILE_BYTES = 512 * 1024**2
"""The largest game file rmviz reads whole (a 2,000 x 2,000 .nfg is about 30 MB). Larger
files, and things that are not regular files (``/dev/zero``, a pipe), are refused before
reading. A .efg file is streamed instead, whatever its size; only when the streaming reader
cannot read it is it read whole (for the token reader's message), within this limit."""


def regular_file_size(path: str | Path, what: str = "game file") -> int:
    """The size of ``path`` if it is a regular file; otherwise a :class:`ReadError` naming the
    file (a folder, a device, a pipe or a socket; missing, unreadable)."""
    path = Path(path)
    try:
        status = path.stat()
    except FileNotFoundError:
        raise ReadError(str(path), "no such file") from None
    except OSError as error:  # permission, a name too long, a symbolic link loop, a path under a file
        raise ReadError(str(path), f"cannot read ({error.strerror or error})") from None
    if stat.S_ISDIR(status.st_mode):
        raise ReadError(str(path), f"is a folder, not a {what}")
    if not stat.S_ISREG(status.st_mode):
        raise ReadError(str(path), "is not a regular file (a device, a pipe or a socket)")
    return status.st_size


def open_regular_file(path: str | Path, what: str = "game file") -> tuple[BinaryIO, int]:
    """``path`` opened for reading bytes, and its size, if it is a regular file (any size);
    otherwise a :class:`ReadError` naming the file, worded as :func:`read_text_file` words it."""
    size = regular_file_size(path, what)
    try:
        return Path(path).open("rb"), size
    except FileNotFoundError:
        raise ReadError(str(path), "no such file") from None
    except OSError as error:
        raise ReadError(str(path), f"cannot read ({error.strerror or error})") from None


def read_text_file(path: str | Path, what: str = "game file") -> str:
    """The text of ``path`` (UTF-8, a byte-order mark allowed), read with the care every
    reader of rmviz takes: a regular file of at most :data:`MAX_FILE_BYTES`, checked before
    it is read; a :class:`~rmviz.errors.ReadError` naming the file otherwise. ``what`` names
    the kind of file in messages (``"session file"``)."""
    path = Path(path)
    size = regular_file_size(path, what)
    if size > MAX_FILE_BYTES:
        megabytes, limit = size // 1024**2, MAX_FILE_BYTES // 1024**2
        raise ReadError(str(path), f"is {megabytes} MB; rmviz reads {what}s up to {limit} MB")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ReadError(str(path), "no such file") from None
    except OSError as error:
        raise ReadError(str(path), f"cannot read ({error.strerror or error})") from None
    if len(data) > MAX_FILE_BYTES:
        raise ReadError(str(path), f"grew past {MAX_FILE_BYTES // 1024**2} MB while being read")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ReadError(str(path), f"not a text file ({error.reason} at byte {error.start})") from None


def read_toml_file(path: str | Path, what: str) -> dict[str, Any]:
    """The TOML table in ``path`` (a sweep config, a lecture deck), read as
    :func:`read_text_file` reads; text that is not TOML, or holds an integer past Python's
    4,300-digit limit (tomllib's ``ValueError``), is a :class:`~rmviz.errors.ReadError`."""
    text = read_text_file(path, what)
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as error:
        raise ReadError(str(path), f"not TOML: {error}") from None
