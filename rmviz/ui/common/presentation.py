"""The window's size and text: it opens at a size that fits the screen, *presentation mode*
(F5: larger text and plots on the light theme, what the window hides for it hidden, full
screen or the ``--size`` size; Esc leaves it and full screen) and the text size (Ctrl+= /
Ctrl+- / Ctrl+0), which scale the widgets' font and the plots.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, QRect, QSize
from PySide6.QtGui import QAction, QFont, QGuiApplication, QKeySequence, QPalette
from PySide6.QtWidgets import QMenu, QStyleFactory

MINIMUM_SIZE = QSize(800, 560)  # a window opens at least this large, where the screen has room
PRESENTATION_TEXT = 1.5  # presentation mode: the widgets' font times this
PRESENTATION_PLOTS = 1.4  # and the plots' fonts and lines times this
TEXT_STEP = 1.15  # Ctrl+= / Ctrl+- multiply or divide the text size by this
TEXT_STEPS = (-3, 6)  # the smallest and largest number of steps


class Presentation(QObject):
    """Presentation mode and the text size of a :class:`~.run_window.RunWindow` (``window``,
    typed loosely: its module imports this one), which fills in ``show_presentation`` and
    ``set_plot_scale``. ``on``: presentation mode; ``text_steps``: Ctrl+= and Ctrl+- steps
    from the normal text size; ``fixed_size``: ``--size``, kept in presentation mode."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.on = False
        self.text_steps = 0
        self.fixed_size: QSize | None = None
        self.action: QAction | None = None  # F5, built with the View menu (:meth:`add_menu`)
        self.leave_action: QAction | None = None  # Esc, likewise
        self._base_font = QFont(window.font())
        self._base_palette = QPalette(window.palette())
        window.installEventFilter(self)  # full screen or not: Esc's action follows

    def fit_to_screen(self, preferred: QSize, available: QRect | None = None) -> None:
        """Resize to ``preferred``, or less where the screen's available area (``available``;
        by default the window's screen's) is smaller: 95% of it at most, but not below
        :data:`MINIMUM_SIZE` where the screen has room for that; centred on it."""
        window = self.window
        if available is None:
            screen = window.screen() or QGuiApplication.primaryScreen()
            available = screen.availableGeometry()
        room = available.size()
        size = preferred.boundedTo(room * 0.95).expandedTo(MINIMUM_SIZE.boundedTo(room))
        window.resize(size)
        frame = QRect(available.topLeft(), window.size())
        frame.moveCenter(available.center())
        window.move(frame.topLeft())

    def keep_size(self, size: QSize) -> None:
        """``--size``: the window at ``size``, in and out of presentation mode."""
        self.fixed_size = size
        if self.window.isFullScreen():  # a reopened session in presentation mode went full screen
            self.window.showNormal()
        self.window.resize(size)

    def add_menu(self, view: QMenu) -> None:
        """Presentation mode and the text size, in the window's *View* menu."""
        action = self.window._action
        self.action = action(view, "&Presentation Mode", self.toggle, QKeySequence("F5"))
        self.action.setCheckable(True)
        self.leave_action = action(view, "&Leave Presentation / Full Screen", self.leave, QKeySequence("Esc"))
        self.leave_action.setEnabled(False)  # only then: Esc stays the editors' otherwise
        view.addSeparator()
        bigger = action(view, "&Bigger Text", lambda: self.set_text_steps(self.text_steps + 1))
        bigger.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
        action(view, "S&maller Text", lambda: self.set_text_steps(self.text_steps - 1), "Ctrl+-")
        action(view, "&Normal Text Size", lambda: self.set_text_steps(0), "Ctrl+0")

    def toggle(self) -> None:
        """Presentation mode on or off (F5)."""
        self.set(not self.on)

    def leave(self) -> None:
        """Esc: out of presentation mode and out of full screen."""
        self.set(False)
        if self.window.isFullScreen():
            self.window.showNormal()

    def set(self, on: bool) -> None:
        """Presentation mode: larger text and plots on the light theme, what the window hides
        for it hidden (its ``show_presentation``), full screen (at the ``--size`` size
        instead, when one was given)."""
        if on == self.on:
            return
        window = self.window
        self.on = on
        if self.action is not None:
            self.action.setChecked(on)
        light = QStyleFactory.create("Fusion").standardPalette()  # whatever the desktop's theme
        window.setPalette(light if on else self._base_palette)
        window.show_presentation(on)
        self.apply_scale()
        if self.fixed_size is not None:
            window.resize(self.fixed_size)
        elif on:
            window.showFullScreen()
        elif window.isFullScreen():
            window.showNormal()
        self._update_leave()

    def set_text_steps(self, steps: int) -> None:
        """The text size: ``steps`` times Ctrl+= (negative: Ctrl+-) from the normal size."""
        self.text_steps = max(TEXT_STEPS[0], min(TEXT_STEPS[1], steps))
        self.apply_scale()

    def text_scale(self) -> float:
        """What the widgets' font is multiplied by (presentation mode and the text size)."""
        return float(TEXT_STEP**self.text_steps * (PRESENTATION_TEXT if self.on else 1.0))

    def plot_scale(self) -> float:
        """What the plots' fonts and lines are multiplied by."""
        return float(TEXT_STEP**self.text_steps * (PRESENTATION_PLOTS if self.on else 1.0))

    def apply_scale(self) -> None:
        """Set the window's font (its tables, labels and explanations follow it) and rebuild
        the plots at :meth:`plot_scale` (the window's ``set_plot_scale``), drawn again at
        once (paused runs included)."""
        font = QFont(self._base_font)
        font.setPointSizeF(self._base_font.pointSizeF() * self.text_scale())
        self.window.setFont(font)
        self.window.set_plot_scale(self.plot_scale())
        self.window.run.redraw(force=True)

    def _update_leave(self) -> None:
        if self.leave_action is not None:
            self.leave_action.setEnabled(self.on or self.window.isFullScreen())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.WindowStateChange:
            self._update_leave()
        return super().eventFilter(watched, event)
