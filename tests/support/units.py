"""Units of work for tests that call the use cases themselves: ``with unit(judge) as uow:`` is what
``with judge.sessions.begin() as db:`` was, but the use cases take the unit (issue 27 item 1).  It
has no handlers unless given some (a test that wants early processing passes the judge's, or uses
``app.services.bootstrap.transaction``), and commits when the block ends (``commit=False``: rolled
back, as ``with judge.sessions() as db:`` was)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm import Session, sessionmaker

from app.services.kernel.context import Judge
from app.services.kernel.uow import Handlers, UnitOfWork

__all__ = ["unit"]


@contextmanager
def unit(of: Judge | sessionmaker[Session], *, commit: bool = True,
         handlers: Handlers | None = None) -> Iterator[UnitOfWork]:
    sessions = of.sessions if isinstance(of, Judge) else of
    with UnitOfWork(sessions, handlers) as uow:
        yield uow
        if commit:
            uow.commit()
