"""Where the doors and jobs get their units of work (Cosmic Python's ``bootstrap.py``): the
judge's sessions with the handlers of the use cases' events (``app.services.handlers``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from app.services.handlers import handlers
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork

__all__ = ["read_only", "transaction", "unit_of_work"]


def unit_of_work(judge: Judge) -> UnitOfWork:
    """A new unit of work of ``judge`` (``with unit_of_work(judge) as uow: ...; uow.commit()``)."""
    return UnitOfWork(judge.sessions, handlers(judge))


@contextmanager
def transaction(judge: Judge) -> Iterator[UnitOfWork]:
    """A unit of work committed when the block ends (rolled back when it raises): the doors'
    and jobs' own bookkeeping (storing a mail, counting an attempt, a send)."""
    with unit_of_work(judge) as unit:
        yield unit
        unit.commit()


@contextmanager
def read_only(judge: Judge) -> Iterator[UnitOfWork]:
    """A read-only unit of work (no write lock on SQLite, a READ ONLY transaction on PostgreSQL),
    ended when the block ends: the dashboard's pages and ``/healthz``."""
    with UnitOfWork(judge.sessions, read_only=True) as unit:
        yield unit
        unit.commit()
