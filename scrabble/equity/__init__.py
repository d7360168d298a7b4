"""Equity: which move is best, as a typed sum of named terms in millipoints.

``terms`` lists the terms (score, leave, endgame, premium waste, prospect,
risk), each a function of the same shape; ``options`` holds every default and
weight; ``evaluate`` sums them, cheap terms for every move and the expensive
ones for the best few, and ranks.
"""
