"""Lexicons: word lists, anagram signatures, the SQLite store and the trie."""
