"""The public gateway: validates positions, runs an engine, answers JSON."""
