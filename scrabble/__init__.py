"""Scrabble move engine core, shared by the gateway and the worker.

Data flows through the subpackages in this order:
lexicon -> rules/position/board -> engines -> scoring -> equity -> notation.
"""

from scrabble.compiled import guard

guard()  # before any kernel is defined: Numba's cache keyed on these sources
