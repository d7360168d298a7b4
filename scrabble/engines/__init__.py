"""Move generators. Each engine is one object behind one interface
(``registry.Engine``: ``generate(position) -> MoveList``; the remote
``compact-numba`` is awaited), listed once in ``registry.ENGINES``. They differ
only in how they find candidate words; the board view (``scrabble.board``) and
scoring (``scrabble.scoring``) are shared."""
