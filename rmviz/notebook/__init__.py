"""The live view in notebooks: :func:`rmviz.watch` runs a solver on the window's run loop
(:class:`~rmviz.runner.loop.RunLoop`) in a thread and redraws the window's panels
(:mod:`rmviz.present.panels`, drawn by :func:`rmviz.figures.panels.draw_panel`) as PNG frames
into an ipywidgets view with run, pause, step and reset (:mod:`.watch`, :mod:`.frames`,
:mod:`.controls`). Qt-free, like the rest of the notebook API (:mod:`rmviz.api`), whose
:class:`~rmviz.api.Result` a watched run hands over (``watch.result``).
"""
