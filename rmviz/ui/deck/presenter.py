"""The presenter view: what the lecturer sees on the laptop while the slides are projected.

The slide shown ("3 / 9 · title"), its speaker notes in large type, the next slide's title,
the time since the deck started, the list of every slide (a click shows it) and *Previous*
/ *Next*; PageDown / PageUp work here as in the slides' windows. With two screens it opens
on the primary one and the slides on the other (as PowerPoint's and Impress's presenter
consoles do).
"""

from __future__ import annotations

import html
import re
import time

from PySide6.QtCore import QTimer
from PySide6.QtGui import QCloseEvent, QFont, QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from rmviz.ui.deck.controller import DeckController

NOTES_POINTS = 20  # the notes' font size, readable at arm's length


def notes_html(notes: str) -> str:
    """Speaker notes as HTML paragraphs: a blank line starts a paragraph, a single line break
    is a space (as in Markdown, so notes wrapped in the TOML file flow in the view)."""
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", notes) if p.strip()]
    return "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs) or "<p><i>(no notes)</i></p>"


class PresenterView(QWidget):
    """The lecturer's view of ``controller``'s deck (module docstring)."""

    def __init__(self, controller: DeckController) -> None:
        super().__init__()
        self.controller = controller
        deck = controller.deck
        self.setWindowTitle(f"rmviz presenter - {deck.title or (deck.path.name if deck.path else 'deck')}")
        self.current = QLabel()
        self.current.setObjectName("presenter-current")
        big = QFont(self.font())
        big.setPointSizeF(big.pointSizeF() * 1.6)
        big.setBold(True)
        self.current.setFont(big)
        self.current.setWordWrap(True)
        self.notes = QTextBrowser()
        notes_font = QFont(self.font())
        notes_font.setPointSize(NOTES_POINTS)
        self.notes.setFont(notes_font)
        medium = QFont(self.font())
        medium.setPointSizeF(medium.pointSizeF() * 1.3)
        self.following = QLabel()
        self.following.setWordWrap(True)
        self.following.setFont(medium)
        self.clock = QLabel()
        self.clock.setFont(medium)
        self.slides = QListWidget()
        for index in range(len(deck.slides)):
            self.slides.addItem(controller.counter(index))
        self.slides.itemClicked.connect(lambda item: controller.show(self.slides.row(item)))
        previous, following = QPushButton("Previous (PageUp)"), QPushButton("Next (PageDown)")
        previous.clicked.connect(controller.previous)
        following.clicked.connect(controller.next)
        buttons = QHBoxLayout()
        buttons.addWidget(previous)
        buttons.addWidget(following)
        buttons.addStretch(1)
        buttons.addWidget(self.clock)
        main = QWidget()
        column = QVBoxLayout(main)
        column.addWidget(self.current)
        column.addWidget(self.notes, 1)
        column.addWidget(self.following)
        column.addLayout(buttons)
        split = QSplitter()
        split.addWidget(main)
        split.addWidget(self.slides)
        split.setSizes([760, 260])
        layout = QVBoxLayout(self)
        layout.addWidget(split)
        controller.add_keys(self)
        controller.changed.connect(self.update_slide)
        self._started = time.monotonic()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)
        self._timer.start(1000)
        self._tick()
        self.resize(1024, 640)

    def update_slide(self, index: int) -> None:
        """Show slide ``index``'s counter, notes and what comes next."""
        controller = self.controller
        slide = controller.deck.slides[index]
        self.current.setText(controller.counter(index))
        self.notes.setHtml(notes_html(slide.notes))
        slides = controller.deck.slides
        self.following.setText(
            f"Next: {controller.counter(index + 1)}" if index + 1 < len(slides) else "Next: (the end)"
        )
        self.slides.setCurrentRow(index)

    def place(self) -> None:
        """On the primary screen (the laptop's), where there are several."""
        primary = QGuiApplication.primaryScreen()
        if primary is not None and len(QGuiApplication.screens()) > 1:
            self.setScreen(primary)
            self.move(primary.availableGeometry().topLeft())

    def _tick(self) -> None:
        seconds = int(time.monotonic() - self._started)
        self.clock.setText(f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}")

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing the presenter view ends the deck: the slides' windows close too."""
        self._timer.stop()
        for window in self.controller.windows():
            window.close()
        event.accept()
