"""Files the app reads at run time, shipped inside the package (read with importlib.resources,
so they are found in a wheel, an editable install and the PyInstaller bundle alike).

* ``icons/rmviz-SIZE.png``: the application icon, rendered from ``resources/icons/rmviz.svg``
  by ``resources/icons/render.sh``.

:data:`APP_ID` names the app to the desktop: the ``.desktop`` file, the icon in the icon
theme and the AppStream metainfo (``resources/``) all carry it.
"""

from __future__ import annotations

from importlib import resources

APP_ID = "io.github.rmviz.rmviz"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def icon_png(size: int) -> bytes:
    """The application icon as a ``size`` x ``size`` PNG (one of :data:`ICON_SIZES`)."""
    if size not in ICON_SIZES:
        raise ValueError(f"no {size} px icon; there are {ICON_SIZES}")
    return resources.files(__name__).joinpath("icons", f"rmviz-{size}.png").read_bytes()
