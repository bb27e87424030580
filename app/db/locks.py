"""Named locks held until the end of the transaction: a count and the check against it (a limit),
or a read and the write that depends on it, made by one request at a time.

On PostgreSQL a transaction-scoped advisory lock per name (``pg_advisory_xact_lock``), released
by the commit or the rollback.  On SQLite every writing transaction already runs alone (it begins
with ``BEGIN IMMEDIATE``: ``app.db.session``), so there is nothing more to take.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

__all__ = ["hold_locks"]

_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:name, 0))")


def hold_locks(db: Session, *names: str) -> None:
    """Wait for, then hold until the transaction ends, the lock of each name, in the order given
    (callers name them in one fixed order, so two transactions never wait for each other)."""
    if db.get_bind().dialect.name != "postgresql":
        return
    for name in names:
        db.execute(_LOCK, {"name": name})
