"""The deck controller: one slide at a time in the app's run windows.

Each slide is a :class:`~rmviz.runner.session.Session`, shown in presentation mode by the
window of its family (one window per family, reused: :data:`rmviz.ui.app.WINDOWS`) through
the window's own session machinery (``window.sessions.reopen_session``), so a slide looks as
the same session opened with ``rmviz FILE`` would. A game slide on the *Compare algorithms*
tab runs every compared algorithm to the slide's iteration too.

Revisiting a slide shows it again from its definition (the deck is the script of the
lecture: slide 3 is the same picture every time it is shown); what a lecturer ran further
live is one *File > Save Session* away. PageDown / PageUp (what presentation clickers send)
move, Home / End go to the first and last slide, from any of the deck's windows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from rmviz.runner.deck import Deck, Slide
from rmviz.runner.session import Session
from rmviz.solvers.family import Family
from rmviz.ui.app import WindowRegistry
from rmviz.ui.common.run_window import RunWindow

NEXT_KEYS = (Qt.Key.Key_PageDown,)
PREVIOUS_KEYS = (Qt.Key.Key_PageUp,)


def shown(slide: Slide) -> Session:
    """The session a slide shows: its own, in presentation mode."""
    session = slide.session
    return dataclasses.replace(session, view=dataclasses.replace(session.view, presentation=True))


class DeckController(QObject):
    """Shows ``deck``'s slides one at a time in windows ``registry`` opens (``size``: every
    window's size, as ``--size``; None: full screen). ``index`` is the slide shown (-1
    before the first); ``changed`` is emitted with it."""

    changed = Signal(int)

    def __init__(self, deck: Deck, registry: WindowRegistry, size: tuple[int, int] | None = None) -> None:
        super().__init__()
        self.deck, self.registry, self.size = deck, registry, size
        self.index = -1
        self.window: RunWindow | None = None  # the window of the slide shown
        self._windows: dict[Family, RunWindow] = {}
        self._shortcuts: list[QShortcut] = []
        self.show_error: Callable[[str], None] | None = None  # the windows' dialogs, replaced

    @property
    def slide(self) -> Slide | None:
        return self.deck.slides[self.index] if 0 <= self.index < len(self.deck.slides) else None

    def counter(self, index: int | None = None) -> str:
        """``"3 / 9 · title"`` for slide ``index`` (default the one shown)."""
        index = self.index if index is None else index
        return f"{index + 1} / {len(self.deck.slides)} \u00b7 {self.deck.slides[index].title}"

    # -- moving ---------------------------------------------------------------------------------
    def next(self) -> None:
        self.show(min(self.index + 1, len(self.deck.slides) - 1))

    def previous(self) -> None:
        self.show(max(self.index - 1, 0))

    def show(self, index: int) -> bool:
        """Show slide ``index`` as defined (module docstring); False when its session could
        not be shown (the window said why, as a dialog)."""
        slide = self.deck.slides[index]
        session = shown(slide)
        window = self._window_for(session)
        self.index = index
        for other in self.registry.windows:
            if other is not window and other in self._windows.values():
                other.hide()
        # the file a message names: the session's, or the deck's with the slide (a game slide)
        named = slide.source or Path(f"{self.deck.path or 'deck'} (slide {index + 1})")
        ok = bool(window.sessions.reopen_session(session, named))
        if ok and self._compares(slide):
            self._run_compare(window, session.iteration)
        self._present(window)
        self.changed.emit(index)
        return ok

    def ready(self) -> bool:
        """Whether the slide shown is as defined: its solvers ready, a reopened run at its
        iteration, a compare slide's algorithms too."""
        window, slide = self.window, self.slide
        if window is None or slide is None:
            return False
        if window.run.preparing() or window.sessions.catching_up():
            return False
        if self._compares(slide):
            target = slide.session.iteration
            threads = window.compare.threads.values()
            return all(not t.loop.busy and t.loop.latest()[1].iteration >= target for t in threads)
        return True

    def progress(self) -> tuple[int, int] | None:
        """The shown slide's run on its way: ``(iteration reached, target)``; None when not."""
        return None if self.window is None else self.window.sessions.catch_up_progress()

    # -- windows --------------------------------------------------------------------------------
    def _window_for(self, session: Session) -> RunWindow:
        """The deck's window of ``session``'s family (a new one if none is open)."""
        family = session.family
        window = self._windows.get(family)
        if window is None or window not in self.registry.windows:  # never opened, or closed
            window = self.registry.open_game(session.game)
            if self.size is not None:
                window.presentation.keep_size(QSize(*self.size))
            if self.show_error is not None:
                window.show_error = self.show_error  # type: ignore[method-assign]
            self._decorate(window)
            self._windows[family] = window
        self.window = window
        return window

    def _decorate(self, window: RunWindow) -> None:
        """The slide counter in the menu bar's corner, and the deck's keys."""
        label = QLabel()
        label.setObjectName("deck-counter")
        label.setContentsMargins(8, 0, 8, 0)
        window.menuBar().setCornerWidget(label, Qt.Corner.TopRightCorner)
        label.show()  # a corner widget set on a shown menu bar stays hidden otherwise
        self.changed.connect(lambda _index: self._show_counter(window, label))
        self.add_keys(window)

    def _show_counter(self, window: RunWindow, label: QLabel) -> None:
        """The counter of the slide shown, elided to half the window's width, laid out again
        (the menu bar places its corner widget only when it is resized)."""
        if window not in self.registry.windows:  # closed by the lecturer: a new one shows slides
            return
        text = self.counter()
        label.setToolTip(text)
        label.setText(label.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, window.width() // 2))
        label.adjustSize()
        bar = window.menuBar()
        QApplication.sendEvent(bar, QResizeEvent(bar.size(), bar.size()))

    def add_keys(self, widget: QWidget) -> None:
        """PageDown / PageUp (and Home / End) in ``widget`` and its children."""
        keys = [(k, self.next) for k in NEXT_KEYS] + [(k, self.previous) for k in PREVIOUS_KEYS]
        keys += [(Qt.Key.Key_Home, lambda: self.show(0))]
        keys += [(Qt.Key.Key_End, lambda: self.show(len(self.deck.slides) - 1))]
        for key, slot in keys:
            shortcut = QShortcut(QKeySequence(key), widget)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(slot)
            self._shortcuts.append(shortcut)

    def _present(self, window: RunWindow) -> None:
        """Show ``window`` in front, on the projector where there are two screens."""
        screens = QGuiApplication.screens()
        primary = QGuiApplication.primaryScreen()
        projector = next((s for s in screens if s is not primary), None)
        if projector is not None and window.screen() is not projector:
            window.setScreen(projector)
            window.move(projector.geometry().topLeft())
        if window.presentation.on and self.size is None:
            window.showFullScreen()
        else:
            window.show()
        window.raise_()
        active = QApplication.activeWindow()
        if active is None or active in self._windows.values():  # the presenter view keeps the keys
            window.activateWindow()

    @staticmethod
    def _compares(slide: Slide) -> bool:
        """Whether the slide is a game slide on the compare tab, whose algorithms run to its
        iteration (a session slide's compare tab shows what its session holds)."""
        return slide.source is None and slide.session.view.tab == "compare"

    def _run_compare(self, window: RunWindow, iteration: int) -> None:
        """Step every compared algorithm of the compare tab to ``iteration``."""
        window.compare.activate()
        for thread in window.compare.threads.values():
            done = thread.loop.latest()[1].iteration
            if iteration > done and not thread.loop.busy:
                thread.loop.step(iteration - done)

    def windows(self) -> list[RunWindow]:
        """The deck's windows that are open."""
        return [w for w in self._windows.values() if w in self.registry.windows]
