"""Persistence: SQLAlchemy 2 models, sessions, small query helpers that never commit.

`codec.py` also runs compiled when `make` has built the engine (`app/engine/native.py`).
"""

from app.engine import native

COMPILED = native.activate(__path__, "db")
