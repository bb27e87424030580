"""A unit of work for use-case tests: the real ``UnitOfWork`` over a private in-memory SQLite
database whose schema comes from the models (no migration, no file), so a use case runs in a
few milliseconds; it counts commits and keeps the events it handled (Cosmic Python's
``FakeUnitOfWork``, with a real database instead of fake repositories: our use cases speak SQL)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import StaticPool

import app.db.models  # noqa: F401  (every table on the metadata)
from app.db.base import Base
from app.services.handlers import handlers
from app.services.kernel.context import Judge
from app.services.kernel.uow import DomainEvent, Handlers, UnitOfWork
from app.settings import Settings

__all__ = ["FakeUnitOfWork", "fake_judge"]


def fake_judge(**settings: Any) -> Judge:
    """A judge over a fresh in-memory database (one connection, kept for the judge's life), with
    the pragmas of the real one (``app.db.session``): foreign keys are checked."""
    engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _pragmas)
    Base.metadata.create_all(engine)
    return Judge(settings=Settings(database_url="sqlite://", **settings),
                 sessions=sessionmaker(engine, expire_on_commit=False))


def _pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class FakeUnitOfWork(UnitOfWork):
    """The unit of work of ``judge`` with the judge's handlers (or ``only``), remembering every
    event it handled."""

    def __init__(self, judge: Judge, only: Handlers | None = None) -> None:
        self.handled: list[DomainEvent] = []
        chosen = handlers(judge) if only is None else only
        wrapped = {kind: tuple(self._noting(h) for h in found) for kind, found in chosen.items()}
        super().__init__(judge.sessions, wrapped)

    def _noting(self, handler: Any) -> Any:
        def noted(unit: UnitOfWork, event: DomainEvent) -> None:
            self.handled.append(event)
            handler(unit, event)
        return noted
