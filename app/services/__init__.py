"""Use cases: the only layer that combines engine, database and mail; each owns its transaction."""
