"""The live view's widget (ipywidgets 8): Run, Pause, Step with its count, Reset and Close
buttons, the status line and the newest frame as an ``Image`` widget (PNG bytes: a frame
replaces the last one in place, from any thread, where an ``Output`` widget would append
display messages, which are bound to the thread that executes the cell).

A button's exception shows as one line in the status line, never a traceback; closing the
view (its Close button, or ``widget.close()``) closes the run it shows.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from rmviz.errors import RmvizError
from rmviz.notebook.frames import one_line

STATUS_STYLE = "font-family: monospace; white-space: pre"


def widgets() -> Any:
    """The ipywidgets module; an ``RmvizError`` naming the extra when it is missing."""
    try:
        import ipywidgets
    except ImportError:
        raise RmvizError("the live view needs ipywidgets: pip install 'rmviz[notebook]'") from None
    return ipywidgets


class Controls:
    """The widget of one watched run. ``commands``: ``run``, ``pause``, ``step`` (takes the
    count), ``reset`` and ``close``, called on the kernel's thread when a button is
    clicked; ``failed(message)`` shows a command's error."""

    def __init__(self, commands: dict[str, Callable[..., Any]], failed: Callable[[str], None]) -> None:
        w = widgets()
        self._commands = commands
        self._failed = failed
        self.count = w.BoundedIntText(value=1, min=1, max=10**12, layout=w.Layout(width="9em"))
        self.buttons = {
            name: w.Button(description=name.capitalize(), icon=icon, layout=w.Layout(width="auto"))
            for name, icon in (
                ("run", "play"),
                ("pause", "pause"),
                ("step", "step-forward"),
                ("reset", "undo"),
                ("close", "times"),
            )
        }
        for name, button in self.buttons.items():
            button.on_click(lambda _button, name=name: self.click(name))
        self.status = w.HTML(value="")
        self.image = w.Image(format="png", layout=w.Layout(max_width="100%"))
        row = [self.buttons["run"], self.buttons["pause"], self.buttons["step"], self.count]
        self.box = w.VBox(
            [w.HBox([*row, self.buttons["reset"], self.buttons["close"]]), self.status, self.image]
        )
        self.box.observe(self._closed, names="comm")

    def click(self, name: str) -> None:
        """What the button ``name`` does (the count goes with Step)."""
        try:
            if name == "step":
                self._commands[name](int(self.count.value))
            else:
                self._commands[name]()
        except Exception as error:  # one line in the status, not a traceback in the log
            self._failed(one_line(f"{name}: {type(error).__name__}: {error}"))

    def show(self, status: str, png: bytes | None = None) -> None:
        """The status line (plain text) and, when given, a new frame."""
        html = f'<span style="{STATUS_STYLE}">{escape(status)}</span>'
        if html != self.status.value:
            self.status.value = html
        if png is not None:
            self.image.value = png

    def _closed(self, change: dict[str, Any]) -> None:
        if change["new"] is None:
            self._commands["close"]()

    def close(self) -> None:
        """Close every widget of the view (its views disappear from the page)."""
        for widget in (*self.buttons.values(), self.count, self.status, self.image, *self.box.children):
            widget.close()
        self.box.close()
