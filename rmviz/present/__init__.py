"""What the user is shown, said once and drawn twice: the panels of a run (which trace
columns, titles, axes, tick rules, curves, colours and notes), the simplex and square
geometry, the game-tree layout, and the text of explanations, step tables, the CE checker and
the command line's summaries.

Free of Qt and matplotlib: :mod:`rmviz.figures` draws these specifications on paper
(matplotlib) and :mod:`rmviz.ui` live (pyqtgraph), so a fix to a panel is made once
(tests/present/test_parity.py draws each panel both ways and compares them). Importing this
package, a colour or a tick rule loads no solver.
"""
