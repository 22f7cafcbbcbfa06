"""``rmviz deck lecture.toml``: a lecture deck shown slide by slide (docs/deck-format.md).

:mod:`.controller` shows one slide at a time in the run windows (PageDown / PageUp), with
the counter in the window's menu bar; :mod:`.presenter` is the lecturer's view (notes, next
slide, clock); :mod:`.main` starts them, or writes one screenshot per slide.
"""
