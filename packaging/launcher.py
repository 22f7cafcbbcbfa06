"""The bundle's entry point: the ``rmviz`` command (window or subcommand)."""

import sys

from rmviz.cli import main

if __name__ == "__main__":
    sys.exit(main())
