"""Package metadata as the ecosystem expects (issue 27): a LICENSE with a PEP 639 license
expression, one version (pyproject.toml's, read back through importlib.metadata), and extras
that install what their features import. tests/packaging/test_wheel.py checks the built wheel."""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ElementTree
from importlib import metadata
from pathlib import Path

import rmviz

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_version_is_written_once_and_read_from_the_metadata():
    assert rmviz.__version__ == PROJECT["version"] == metadata.version("rmviz")
    assert "__version__ =" not in (ROOT / "rmviz" / "__init__.py").read_text(encoding="utf-8")


def test_the_newest_appstream_release_is_this_version():
    """The metainfo lists releases for software centres: its newest is the package's."""
    tree = ElementTree.parse(ROOT / "resources" / "io.github.rmviz.rmviz.metainfo.xml")
    newest = tree.getroot().find("releases/release")
    assert newest is not None and newest.get("version") == PROJECT["version"]


def test_the_license_is_an_spdx_expression_with_its_file():
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 rmviz developers\n")
    # PEP 639: setuptools refuses "License ::" classifiers beside a license expression
    assert not [c for c in PROJECT["classifiers"] if c.startswith("License ::")]


def test_classifiers_name_the_supported_pythons_and_urls_are_given():
    requires = PROJECT["requires-python"]
    assert requires == ">=3.11"
    for version in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {version}" in PROJECT["classifiers"]
    assert any(c.startswith("Development Status ::") for c in PROJECT["classifiers"])
    assert {"Homepage", "Documentation", "Issues", "Source"} <= set(PROJECT["urls"])


def test_the_notebook_extra_installs_what_the_progress_bar_needs():
    """rmviz.api draws tqdm's widget bar (tqdm.auto) when ipywidgets is there, and the plain
    bar (which tqdm.auto would warn about) otherwise: the notebook extra brings the widget."""
    names = {
        requirement.split(">")[0].split("=")[0].split("[")[0]
        for requirement in PROJECT["optional-dependencies"]["notebook"]
    }
    assert {"pandas", "tqdm", "ipywidgets"} <= names
