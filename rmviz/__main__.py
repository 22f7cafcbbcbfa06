"""``python -m rmviz``: the same as the ``rmviz`` command."""

import sys

from rmviz.cli import main

sys.exit(main())
