"""The unit of work: one transaction per mail, web request and scheduler job.

A door (the mail runner, a web request's dependency) or a job opens one, hands its ``session``
to the use cases, and commits it once, before it answers.  It holds what used to hide in the
session: the mails a door keeps back until its own answer is queued (``held``), the open phases
already read in this transaction (``phases``, lent to ``app.db.queries.open_phase_of``), and the
domain events the use cases record (``record``).  The events are handled before the commit, in
the same transaction (``publish``; ``commit`` publishes what is left), by the handlers the
composition gives (``app.services.handlers``): ``OrdersChanged`` -> early processing, whichever
door the orders came through.

Modelled on Cosmic Python's ``unit_of_work.py`` and ``messagebus.py``.  ``FakeUnitOfWork`` (for
use-case tests) is the same unit over a private in-memory database, and counts its commits.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["DomainEvent", "Handlers", "MoveDownsChanged", "OrdersChanged", "UnitOfWork", "current", "record",
           "savepoint"]

log = logging.getLogger(__name__)

_KEY = "unit_of_work"
PHASE_CACHE = "open_phase_of"  # the key app.db.queries.open_phase_of reads its cache under


@dataclass(frozen=True)
class DomainEvent:
    """Something a use case did that others react to, in the same transaction."""


@dataclass(frozen=True)
class OrdersChanged(DomainEvent):
    """A power's orders, readiness (WAIT) or press changed: whether the phase may run early."""

    game_id: int


@dataclass(frozen=True)
class MoveDownsChanged(DomainEvent):
    """A Democrat answered the move-downs of a Days of Decision III turn: the next one is called once
    every command of the mail (or request) has run, so a player who answers for several Democrats
    at once is not told it is his turn for one he has just answered (issue 28.21)."""

    game_id: int


Handler = Callable[["UnitOfWork", Any], None]
Handlers = Mapping[type[DomainEvent], tuple[Handler, ...]]


class UnitOfWork:
    """``with UnitOfWork(judge.sessions, handlers) as uow: ...; uow.commit()``; leaving the block
    without a commit rolls everything back."""

    def __init__(self, sessions: sessionmaker[Session], handlers: Handlers | None = None) -> None:
        self._sessions = sessions
        self._handlers: Handlers = handlers or {}
        self.events: list[DomainEvent] = []
        self.held: list[Any] | None = None  # outbox rows kept back (app.services.mailout.outbox)
        self.phases: dict[int, Any] = {}
        self.commits = 0
        self._session: Session | None = None

    @property
    def session(self) -> Session:
        if self._session is None:
            raise RuntimeError("the unit of work is not open")
        return self._session

    def __enter__(self) -> Self:
        session = self._sessions()
        session.info[_KEY] = self
        session.info[PHASE_CACHE] = self.phases
        session.begin()
        self._session = session
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        session = self.session
        try:
            if session.in_transaction():
                session.rollback()  # not committed: nothing of it stays
        finally:
            session.info.pop(_KEY, None)
            session.close()
            self._session = None

    def record(self, event: DomainEvent) -> None:
        """Note an event; equal events of one unit are handled once."""
        if event not in self.events:
            self.events.append(event)

    def publish(self) -> None:
        """Handle the events recorded so far (and those their handlers record), in this transaction."""
        while self.events:
            event = self.events.pop(0)
            for handler in self._handlers.get(type(event), ()):
                handler(self, event)

    def commit(self) -> None:
        """Handle what is left of the events, then commit: once, before the door answers."""
        self.publish()
        self.session.commit()
        self.commits += 1

    def rollback(self) -> None:
        self.events.clear()
        self.session.rollback()

    # The outbox's hold (the mail door queues its answer before what the mail caused).
    def hold(self) -> None:
        if self.held is None:
            self.held = []

    def take_held(self) -> list[Any]:
        held, self.held = self.held or [], None
        return held


def current(session: Session) -> UnitOfWork | None:
    """The unit of work a session belongs to (None: a session opened outside one, as some tests do)."""
    unit = session.info.get(_KEY)
    return unit if isinstance(unit, UnitOfWork) else None


@contextmanager
def savepoint(session: Session, *, keep: tuple[type[Any], ...] = ()) -> Iterator[None]:
    """A part of the unit that a refusal undoes whole: its writes (a SAVEPOINT) and the events it
    recorded.  A door that answers a ``DomainError`` on purpose (a form shown again, filled in)
    runs the use case inside one, so nothing of the refused request is written or told.  ``keep``:
    the rows of these models the part added are written all the same (a failed sign-in attempt,
    which must count, or the limit would never bite)."""
    unit = current(session)
    recorded = list(unit.events) if unit is not None else []
    added: list[Any] = []  # the rows of ``keep`` the part adds (held here: the session holds them weakly)

    def seen(_session: Session, row: Any) -> None:
        if isinstance(row, keep):
            added.append(row)

    if keep:
        event.listen(session, "transient_to_pending", seen)
    kept: list[Any] = []
    try:
        with session.begin_nested():
            try:
                yield
            except BaseException:
                if unit is not None:
                    unit.events[:] = recorded
                kept = [_copy(row) for row in added]
                raise
    finally:
        if keep:
            event.remove(session, "transient_to_pending", seen)
        session.add_all(kept)  # after the rollback to the savepoint


def _copy(row: Any) -> Any:
    """A new row with ``row``'s columns but its key (written again after the savepoint's rollback)."""
    mapper = inspect(row).mapper
    values = {attr.key: getattr(row, attr.key) for attr in mapper.column_attrs
              if not any(column.primary_key for column in attr.columns)}
    return mapper.class_(**values)


def record(session: Session, event: DomainEvent) -> None:
    """A use case records an event on its caller's unit of work.  Outside one (a bare session)
    nothing reacts: the caller asked for no handlers."""
    unit = current(session)
    if unit is not None:
        unit.record(event)
    else:
        log.debug("event %r outside a unit of work: not handled", event)
