"""Equity: what a move is worth beyond its score (leave, end-of-game terms, endgame search)."""
