"""The bundle's entry point: the ``rmviz`` command (window or subcommand)."""

import multiprocessing
import sys

from rmviz.cli import main

if __name__ == "__main__":
    # a process the bundle spawns (rmviz precompile's workers) runs its task, not the app
    multiprocessing.freeze_support()
    sys.exit(main())
