"""The window's icon comes from the package data, in every size (issue 13)."""

from __future__ import annotations

from PySide6.QtCore import QSize

from rmviz import resources
from rmviz.ui.app import app_icon


def test_the_app_icon_has_every_size(qapp):
    icon = app_icon()
    assert not icon.isNull()
    assert {size.width() for size in icon.availableSizes()} == set(resources.ICON_SIZES)
    assert icon.pixmap(QSize(48, 48)).width() == 48
