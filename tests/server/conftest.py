"""Fixtures for the server tests: a migrated database (SQLite, then PostgreSQL), the engine, a settable clock."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import func, select

from app import jsonapi
from app.db.models import OutboundMessage
from app.db.session import make_engine, make_sessionmaker
from app.mail.runners.inbound import InboundOutcome, handle_raw
from app.services.kernel.context import Judge
from app.settings import Settings
from tests.support.databases import PostgresTemplate, copy_sqlite, prepared_sqlite

_counter = itertools.count(1)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


def make_mail(sender: str, body: str, *, to: str = "judge@judge.test", subject: str = "orders",
              message_id: str | None = None, headers: dict[str, str] | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or f"<t{next(_counter)}.{os.getpid()}@test>"
    for key, value in (headers or {}).items():
        msg[key] = value
    msg.set_content(body)
    return msg.as_bytes()


class Harness:
    def __init__(self, judge: Judge, clock: Clock) -> None:
        self.judge = judge
        self.clock = clock
        self.expect_maps = True  # every results mail of a map game carries its map (checked at teardown)

    def check_results_maps(self) -> None:
        """Issue 12: every results mail queued for a game with a map drawing carries its map."""
        from app.db.models import Game
        from app.maps import has_drawing

        with self.judge.sessions.begin() as db:
            rows = db.scalars(select(OutboundMessage).where(OutboundMessage.kind == "results")).all()
            missing = [row.subject for row in rows
                       if row.map_id is None and row.game_id is not None
                       and has_drawing(db.get_one(Game, row.game_id).variant)]
        assert not missing, f"results mails without their map: {missing}"

    def send(self, sender: str, body: str, *, confirm: bool = True, **kwargs: object) -> InboundOutcome:
        """Mail the judge; ``confirm``: when the answer asks the address to confirm a JOIN, OBSERVE,
        CREATE or TAKEOVER (issue 29), reply to its one-time address, as its owner would (the outcome
        is then the reply's)."""
        before = self._last_out() if confirm else 0
        outcome = handle_raw(self.judge, make_mail(sender, body, **kwargs))  # type: ignore[arg-type]
        if confirm:
            self.confirm_targets(after=before)
        address = self.confirmation_address(sender, after=before) if confirm else None
        if address is not None:
            return handle_raw(self.judge, make_mail(sender, "Yes, that was me.", to=address, subject="Re: confirm"))
        return outcome

    def confirm_targets(self, *, after: int = 0) -> int:
        """Answer the confirmations mailed to the addresses a seat or game was pointed at (SET ADDRESS,
        REPLACE, DOD3 SEAT: issue 29) after mail ``after``, as their owners would; how many."""
        with self.judge.sessions.begin() as db:
            asked = [(row.recipients[0], row.reply_to or "") for row in db.scalars(select(OutboundMessage).where(
                OutboundMessage.id > after, OutboundMessage.kind == "confirmation").order_by(OutboundMessage.id))]
        for address, reply_to in asked:
            handle_raw(self.judge, make_mail(address, "Yes.", to=reply_to, subject="Re: confirm"))
        return len(asked)

    def _last_out(self) -> int:
        with self.judge.sessions.begin() as db:
            return db.scalar(select(func.max(OutboundMessage.id))) or 0

    def confirmation_address(self, sender: str, *, after: int = 0) -> str | None:
        """The one-time confirmation address of the judge's last answer to ``sender`` (after mail ``after``)."""
        with self.judge.sessions.begin() as db:
            rows = db.scalars(select(OutboundMessage).where(
                OutboundMessage.id > after, OutboundMessage.kind == "reply",
                OutboundMessage.reply_to.like("judge+c-%")).order_by(OutboundMessage.id.desc()))
            for row in rows:
                if row.recipients[0] == sender.lower():
                    return row.reply_to
        return None

    def outbox(self, to: str | None = None, kind: str | None = None) -> list[OutboundMessage]:
        with self.judge.sessions.begin() as db:
            stmt = select(OutboundMessage).order_by(OutboundMessage.id)
            rows = list(db.scalars(stmt))
        return [r for r in rows if (to is None or r.recipients[0] == to) and (kind is None or r.kind == kind)]

    def last_reply(self, to: str) -> str:
        """The judge's last answer to a mail from ``to`` (the results or notices its commands caused
        are queued after it)."""
        rows = [row for row in self.outbox(to=to) if row.kind in ("reply", "copy")] or self.outbox(to=to)
        assert rows, f"no mail to {to}"
        return rows[-1].body_text


# Set by ``database_url`` on a test whose database is already a copy of the started game.
_STARTED_COPY = pytest.StashKey[bool]()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated database of its own for the test, on SQLite and again on PostgreSQL (each a
    copy of a template migrated once: tests/conftest.py), so that a difference fails a test.
    For a test that uses ``started``, a copy of the template that holds the started game."""
    started = "started" in request.fixturenames and request.node.get_closest_marker("argon2") is None
    request.node.stash[_STARTED_COPY] = started
    if request.param == "sqlite":
        template = "sqlite_started_template" if started else "sqlite_template"
        yield copy_sqlite(request.getfixturevalue(template), tmp_path / "judge.sqlite3")
    else:
        with request.getfixturevalue("postgres_started_template" if started else "postgres_template").copy() as url:
            yield url


def _harness(database_url: str) -> Harness:
    clock = Clock()
    engine = make_engine(database_url)
    settings = Settings(database_url=database_url, judge_address="judge@judge.test", outage_minutes=10**7)
    judge = Judge(settings=settings, sessions=make_sessionmaker(engine), clock=clock)
    return Harness(judge, clock)


@pytest.fixture
def harness(database_url: str) -> Iterator[Harness]:
    harness = _harness(database_url)
    yield harness
    if harness.expect_maps:
        harness.check_results_maps()
    harness.judge.sessions.kw["bind"].dispose()


POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def player(power: str) -> str:
    return f"{power.lower()}@example.com"


def start_alpha(harness: Harness) -> None:
    """The game 'alpha' created and started by mail: its GM's CREATE, then seven JOINs."""
    harness.send("gm@example.com", "CREATE alpha masterpw\nSET REMINDER 0\nSET EARLY 0\nSIGNOFF")
    for power in POWERS:
        out = harness.send(player(power), f"JOIN alpha pw{power.lower()} {power}")
        assert out.status == "done"


def _start_alpha_in(url: str) -> None:
    harness = _harness(url)
    try:
        start_alpha(harness)
    finally:
        harness.judge.sessions.kw["bind"].dispose()


@pytest.fixture(scope="session")
def sqlite_started_template(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SQLite template after ``start_alpha`` (once per test process)."""
    return prepared_sqlite(sqlite_template, tmp_path_factory.mktemp("started") / "judge.sqlite3", _start_alpha_in)


@pytest.fixture(scope="session")
def postgres_started_template(postgres_template: PostgresTemplate) -> Iterator[PostgresTemplate]:
    """The PostgreSQL template after ``start_alpha`` (once per test process)."""
    template = PostgresTemplate(based_on=postgres_template, prepare=_start_alpha_in)
    yield template
    template.drop()


@pytest.fixture
def started(harness: Harness, request: pytest.FixtureRequest) -> Harness:
    """A started game 'alpha' with seven players who joined with their preferred power.

    ``start_alpha`` sends the eight mails once per test process and kind of database, into a
    template (the first test to ask runs them), and the test's database is a copy of the outcome
    (``database_url``; the clock is the harness's, which starts at the same time for every test).
    A test whose database is made otherwise gets the mails sent here."""
    if not request.node.stash.get(_STARTED_COPY, False):
        start_alpha(harness)
    return harness


def token_address(harness: Harness, power: str) -> str:
    """The personal reply address the power's start mail gave it (``judge+<token>@...``)."""
    address = harness.outbox(to=player(power), kind="start")[0].reply_to
    assert address and address.startswith("judge+")
    return address


def signon(power: str, game: str = "alpha") -> str:
    return f"SIGNON {power[0]}{game} pw{power.lower()}\n"


def hold_all(harness: Harness, game: str = "alpha") -> None:
    """Every power orders every unit to hold (or waives its builds)."""
    from app.db import queries
    from app.services.orders.submit import power_status

    with harness.judge.sessions.begin() as db:
        g = queries.game_by_name(db, game)
        assert g is not None
        phase = queries.open_phase(db, g.id)
        assert phase is not None
        needs = {p: jsonapi.orderable(phase.state_before, p) for p in POWERS}
    for power, need in needs.items():
        if need["kind"] == "adjustment":
            lines = ["WAIVE"] * int(need.get("builds", 0))
        else:
            lines = [f"{u} H" if need["kind"] == "movement" else f"{u} D" for u in need.get("units", [])]
        if lines:
            harness.send(player(power), signon(power, game) + "\n".join(lines))
    del power_status
