"""Equity: what a move is worth beyond its score (leave tables and their generation)."""
