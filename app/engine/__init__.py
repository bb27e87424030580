"""The rules engine: pure and deterministic, it imports nothing else from ``app``."""
