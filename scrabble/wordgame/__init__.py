"""The WordGame variant (Topcoder Marathon Match 167): rules, cases, a referee,
the line protocol and the players. The contract is ``docs/wordgame.md``."""
