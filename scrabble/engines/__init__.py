"""Move generators. Each finds candidate placements its own way; legality
(cross-checks, connection) and scoring are shared (``board``, ``scoring``)."""
