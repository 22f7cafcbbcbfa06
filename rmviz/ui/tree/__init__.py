"""The game-tree window: draw and edit a tree, step CFR one iteration at a time, run it.

:mod:`.window` composes the :mod:`.editor` (the :mod:`.view` of the tree with its edit
menu), the :mod:`.infoset_panel` (find an information set; what one iteration did there)
and the :mod:`.plots` (exploitability, the chosen information set's strategy over time).
"""
