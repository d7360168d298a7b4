"""Scrabble move engine core, shared by the gateway and the worker.

Data flows through the subpackages in this order:
lexicon -> rules/position/board -> engines -> scoring -> heuristics.
"""
