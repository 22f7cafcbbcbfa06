"""A solver running, for any game family and without Qt.

``loop`` (RunLoop: run, pause, step and reset from the GUI thread; the worker's chunked
stepping, trace points and frame-paced publication of snapshots), ``trace`` (Trace: a run's
history on a geometric grid, keyed by the solver's typed columns), ``worker`` (SolverThread:
a plain thread serving the loop), ``record`` (record_run without a thread, and run-data
files in CSV or JSON). See docs/architecture.md.
"""
