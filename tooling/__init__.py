"""Tooling for scripts and tests (not installed with the library): the seeded
self-play corpus, the golden set, real service processes, the cache warm-up."""
