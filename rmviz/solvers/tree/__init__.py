"""Game trees (extensive form): CFR and its variants over a compiled tree.

``config`` (CFRConfig, PRESETS, preset), ``compiled_tree`` (CompiledTree, TreePasses),
``solver`` (CFRSolver, TreeSnapshot, IterationRecord), ``state`` (CFRState), ``kernels``
(the compiled full-traversal loop over a CFRState), ``metrics`` (TreeMetrics), ``family``.
"""
