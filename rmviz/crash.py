"""What the command line does with an exception that is not one of rmviz's errors: one line
naming a log file that holds the traceback, and exit status :data:`EXIT_BUG`, so a bug is
reportable without a 30-line dump (issue 33). Memory and operating-system failures (a full
disk, a closed stream) are the machine's, not bugs: one line each (:func:`memory_line`,
:func:`output_line`), exit status 2.

Logs go to ``crash-<time>-<pid>.log`` under the per-user cache folder (``~/.cache/rmviz/logs``
on Linux); where that cannot be written, to the system's temporary folder.
"""

from __future__ import annotations

import os
import tempfile
import time
import traceback
from pathlib import Path

from rmviz.memory import available_memory

EXIT_BUG = 70  # EX_SOFTWARE (sysexits.h): an internal software error


def log_folder() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("rmviz", appauthor=False)) / "logs"


def write_crash_log(error: BaseException, argv: list[str]) -> Path:
    """The traceback of ``error`` and the command line, in a new log file; its path."""
    text = f"rmviz {' '.join(argv)[:2000]}\n\n" + "".join(traceback.format_exception(error))
    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
    for folder in (log_folder(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    raise OSError("no folder to write the crash log to")


def bug_line(error: BaseException, argv: list[str]) -> str:
    """The one line of an unexpected exception, its traceback logged."""
    what = f"{type(error).__name__}: {str(error)[:100]}"
    try:
        where = f"the traceback is in {write_crash_log(error, argv)}"
    except OSError:
        where = "its traceback could not be written anywhere"
    return f"rmviz: internal error ({what}); {where}; please report it"


def memory_line() -> str:
    free = available_memory()
    known = f" ({free / 2**30:.1f} GiB available)" if free is not None else ""
    return f"rmviz: out of memory{known}: try a smaller game, fewer iterations recorded or fewer jobs"


def output_line(error: OSError) -> str:
    """The one line of an operating-system error: a file it names, else standard output."""
    reason = (error.strerror or str(error))[:100]
    if error.filename is not None:
        return f"rmviz: {str(error.filename)[:100]}: {reason}"
    return f"rmviz: cannot write the output ({reason})"
