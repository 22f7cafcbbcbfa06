"""Sphinx's settings for rmviz's API reference: the pages are the docstrings of the public
API (autodoc), so the reference says what the code says.

Build: ``python -m sphinx -W docs/api build/api`` (HTML in ``build/api/index.html``);
``tests/docs/test_api_reference.py`` builds it, warnings as errors, and runs every example.
"""

from typing import Any

from sphinx.ext.napoleon import Config, GoogleDocstring

import rmviz

project = "rmviz"
release = version = rmviz.__version__
copyright = "the rmviz authors"
extensions = ["sphinx.ext.autodoc"]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True  # RATE, not 4.0: the name says where the default lives
add_module_names = False
html_theme = "alabaster"
html_title = f"rmviz {release} API reference"
html_show_sourcelink = False

GOOGLE = Config(napoleon_numpy_docstring=False)


def google_sections(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """The ``Args:`` and ``Attributes:`` sections the docstrings write, as field lists
    (napoleon's reading); the first line of a property's or a constant's stays a sentence,
    which napoleon would split at its first colon into a type and a description."""
    if what not in ("attribute", "property", "data"):
        lines[:] = GoogleDocstring(lines, GOOGLE, app, what, name, obj, options).lines()


def setup(app: Any) -> None:
    app.connect("autodoc-process-docstring", google_sections)
