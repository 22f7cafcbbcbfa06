"""Matrix games (normal form): regret minimisation in self-play.

``config`` (MatrixConfig, PRESETS, preset), ``solver`` (RegretMinimizer, MatrixSnapshot),
``state`` (MatrixState), ``kernels`` (compiled loops over a MatrixState), ``metrics`` (the
definitions of NashConv, CCE and CE gaps), ``family`` (this family's description).
"""
