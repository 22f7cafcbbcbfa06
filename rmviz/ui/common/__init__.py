"""What the matrix window and the tree window share, whatever the game family. Nothing here
imports a family's window: the family comes in as a :class:`~rmviz.solvers.family.Family`.

* :mod:`.run_window`: the run-window template (the *Compare algorithms* tab, errors for the
  person, closing, the command line's ``StartOptions``), holding one part per job:
  :mod:`.run_control` (the run in a worker thread, the paced redraw, the status line),
  :mod:`.game_files`, :mod:`.session_files`, :mod:`.recovery` (autosave and restore),
  :mod:`.presentation` (size, presentation mode, text size) and :mod:`.run_export`;
* :mod:`.run_controls`: Run / Step 1 / Step N / Reset;
* :mod:`.solver_panel`: algorithm, parameters and choices, built from a ``Family``;
* :mod:`.compare`: several algorithms of a ``Family`` run side by side;
* :mod:`.opener`: how a window asks for another game's window (``ui.app`` answers);
* :mod:`.export_dialog`: *Export figure* (the figures of :mod:`rmviz.figures`);
* :mod:`.style`: pens, fonts and the decade-labelled log axis of the live plots.
"""
