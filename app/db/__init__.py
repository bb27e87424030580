"""Persistence: SQLAlchemy 2 models, sessions, small query helpers that never commit."""
