"""The unit of work: one transaction per mail, web request and scheduler job.

A door (the mail runner, a web request's dependency) or a job opens one (``app.services.bootstrap``)
and hands it to the use cases, which take it as their ``uow`` argument: they read and write through
``uow.session``, record domain events (``uow.record``) and queue mail (``uow.enqueue``, through
``app.services.mailout.outbox``); the door commits it once, before it answers.  The unit holds what
lasts one transaction: the mails a door keeps back until its own answer is queued (``held``), the
open phases already read (``phases``: ``open_phase_of``) and the games locked (``locked``:
``lock_game``, ``holds_lock``).  The events are handled before the commit, in the same transaction
(``publish``; ``commit`` publishes what is left), by the handlers the composition gives
(``app.services.handlers``): ``OrdersChanged`` -> early processing, whichever door the orders came
through.  Recording an event on a unit that is not open is an error, never a silent drop.

A read-only unit (``read_only=True``: the dashboard's GETs, ``/healthz``) takes no write lock: on
SQLite it begins with a plain ``BEGIN`` instead of ``BEGIN IMMEDIATE`` (the lock the poller and
the scheduler need), on PostgreSQL its transaction is ``READ ONLY``; it records no event, and one
that wrote is an error at its commit (SQLite counts the rows changed).

Modelled on Cosmic Python's ``unit_of_work.py`` and ``messagebus.py``.  ``FakeUnitOfWork`` (for
use-case tests) is the same unit over a private in-memory database, and counts its commits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self

from sqlalchemy import Connection
from sqlalchemy.orm import Session, sessionmaker

from app.db import queries
from app.db.models import Game, Phase
from app.db.session import READ_ONLY

__all__ = ["DomainEvent", "Handlers", "MoveDownsChanged", "OrdersChanged", "UnitOfWork"]


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

    def __init__(self, sessions: sessionmaker[Session], handlers: Handlers | None = None, *,
                 read_only: bool = False) -> None:
        self._sessions = sessions
        self.read_only = read_only
        self._changes: int | None = None  # SQLite's count of rows changed, when a read-only unit began
        self._handlers: Handlers = handlers or {}
        self.events: list[DomainEvent] = []
        self.held: list[Any] | None = None  # outbox rows kept back (app.services.mailout.outbox)
        self.phases: queries.OpenPhases = {}
        self.locked: queries.LockedGames = {}
        self.gm_mail: dict[int, list[str]] = {}  # a game's master and proven co-GMs, read once a unit
        # The maps this unit recorded (results/maps.py phase_map): not drawn, and no painter sees them
        # before it commits, so the mails carrying them wait without asking (mailout/outbox.py).
        self.new_maps: set[int] = set()
        # What a game had none of when this unit locked it for its turn (turns/deadlines.py: the GM's
        # notes, unpublished press, co-GMs, absences), so the turn does not ask; each is told once.
        self._none_of: set[tuple[str, int]] = set()
        self.commits = 0
        self._session: Session | None = None

    @property
    def session(self) -> Session:
        if self._session is None:
            raise RuntimeError("the unit of work is not open")
        return self._session

    def __enter__(self) -> Self:
        session = self._sessions()
        session.begin()
        self._session = session
        if self.read_only:
            connection = session.connection(execution_options={READ_ONLY: True})
            if connection.dialect.name == "postgresql":
                connection.exec_driver_sql("SET TRANSACTION READ ONLY")
            else:
                self._changes = _rows_changed(connection)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        session = self.session
        try:
            if session.in_transaction():
                session.rollback()  # not committed: nothing of it stays
        finally:
            session.close()
            self._session = None

    def record(self, event: DomainEvent) -> None:
        """Note an event; equal events of one unit are handled once.  Only an open unit records:
        an event nobody would handle is a bug, not something to drop."""
        if self._session is None:
            raise RuntimeError(f"event {event!r} recorded outside an open unit of work")
        if self.read_only:
            raise RuntimeError(f"event {event!r} recorded in a read-only unit of work")
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
        if self.read_only:
            self.session.flush()
            if self._changes is not None and _rows_changed(self.session.connection()) != self._changes:
                raise RuntimeError("a read-only unit of work wrote")
        self.session.commit()
        self.commits += 1

    def rollback(self) -> None:
        self.events.clear()
        self.new_maps.clear()
        self._none_of.clear()
        self.session.rollback()

    def found_none(self, kind: str, game_id: int) -> None:
        """The game had no rows of ``kind`` when this unit locked it (read with the lock)."""
        self._none_of.add((kind, game_id))

    def has_none(self, kind: str, game_id: int) -> bool:
        """Whether the game had no rows of ``kind`` when this unit locked it; answered once (a
        reader asks before reading them: after that, rows this unit adds are read as usual)."""
        known = (kind, game_id) in self._none_of
        self._none_of.discard((kind, game_id))
        return known

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A part of the unit that a refusal undoes whole: its writes (a SAVEPOINT) and the events it
        recorded.  A door that answers a ``DomainError`` on purpose (a form shown again, filled in)
        runs the use case inside one, so nothing of the refused request is written or told."""
        recorded = list(self.events)
        with self.session.begin_nested():
            try:
                yield
            except BaseException:
                self.events[:] = recorded
                raise

    # The outbox (app.services.mailout.outbox builds the rows; the mail door queues its answer
    # before what the mail caused: ``hold``, then ``take_held``).
    def enqueue(self, row: Any) -> None:
        """Add an outbox row to this transaction, or keep it back while the unit holds mail."""
        if self.held is not None:
            self.held.append(row)
        else:
            self.session.add(row)

    def holding(self) -> bool:
        return self.held is not None

    def hold(self) -> None:
        if self.held is None:
            self.held = []

    def take_held(self) -> list[Any]:
        held, self.held = self.held or [], None
        return held

    # What one transaction remembers (app.db.queries keeps the logic, the unit the memory).
    def lock_game(self, game_id: int, *, skip_locked: bool = False) -> Game | None:
        """The game row locked for this transaction and read afresh (``queries.lock_game``), remembered."""
        game = queries.lock_game(self.session, game_id, skip_locked=skip_locked)
        if game is not None:
            self.remember_lock(game)
        return game

    def remember_lock(self, game: Game) -> None:
        queries.remember_lock(self.session, self.locked, game)

    def holds_lock(self, game: Game) -> bool:
        return queries.holds_lock(self.session, self.locked, game)

    def open_phase_of(self, game: Game) -> Phase | None:
        """The open phase of ``game``, asked once per transaction (``queries.open_phase_of``)."""
        return queries.open_phase_of(self.session, self.phases, game)

    def remembered_open_phase(self, game: Game) -> Phase | None:
        return queries.remembered_open_phase(self.session, self.phases, game)

    def remember_open_phase(self, game: Game, phase: Phase) -> None:
        queries.remember_open_phase(self.session, self.phases, game, phase)


def _rows_changed(connection: Connection) -> int:
    """The rows this SQLite connection has changed since it opened (``sqlite3.Connection.total_changes``)."""
    changes: int = getattr(connection.connection.dbapi_connection, "total_changes", 0)
    return changes
