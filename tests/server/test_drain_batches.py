"""The outbox drain in batches (issue 26.2): one SMTP session for many mails (RSET between, the
connection opened again when the server drops it), a recipient the server puts off never holds
the others back, a batch's outcome is written in one statement, and several drains share the
outbox without waiting for each other (FOR UPDATE SKIP LOCKED, PostgreSQL)."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from email import message_from_bytes
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import event, select

from app.db.models import OutboundMessage
from app.mail.outbound.drain import drain_once
from app.mail.outbound.mailer import SmtpMailer
from app.services.mailout.outbox import enqueue
from tests.server.conftest import Harness, _harness
from tests.support.databases import PostgresTemplate, require_postgres
from tests.support.units import unit


class _Server:
    """An SMTP server in this process that accepts every mail and counts its connections and RSETs;
    it can answer one recipient 451 (put off), or drop the connection at the n-th MAIL (421)."""

    def __init__(self) -> None:
        self.connections = 0
        self.rsets = 0
        self.mails = 0
        self.accepted: list[str] = []
        self.subjects: list[tuple[str, str]] = []  # (recipient, subject) as accepted
        self.put_off: set[str] = set()
        self.close_at_mail: int | None = None

    async def handle_EHLO(self, server: Any, session: Any, envelope: Any, hostname: str, responses: list[str]) -> list[str]:
        self.connections += 1
        session.host_name = hostname
        return responses

    async def handle_RSET(self, server: Any, session: Any, envelope: Any) -> str:
        self.rsets += 1
        return "250 OK"

    async def handle_MAIL(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        self.mails += 1
        if self.mails == self.close_at_mail:
            return "421 4.3.0 closing this connection"
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        if address in self.put_off:
            return "451 4.2.0 mailbox busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.accepted.extend(envelope.rcpt_tos)
        subject = message_from_bytes(envelope.original_content)["Subject"]
        self.subjects.extend((rcpt, str(subject)) for rcpt in envelope.rcpt_tos)
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[_Server, int]]:
    handler = _Server()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def _queue(harness: Harness, count: int) -> list[str]:
    addresses = [f"p{n}@example.com" for n in range(count)]
    with unit(harness.judge) as uow:
        for to in addresses:
            enqueue(uow, harness.judge, to=to, subject="results", text=f"for {to}\n")
    return addresses


def _statuses(harness: Harness) -> dict[str, str]:
    with harness.judge.sessions.begin() as db:
        return {row.recipients[0]: row.status for row in db.scalars(select(OutboundMessage))}


def test_one_smtp_session_sends_a_batch_with_rset_between(harness: Harness, smtp: tuple[_Server, int]) -> None:
    server, port = smtp
    addresses = _queue(harness, 6)
    assert asyncio.run(drain_once(harness.judge, SmtpMailer("127.0.0.1", port, timeout=10))) == 6
    assert server.accepted == addresses
    assert server.connections == 1  # one connection for the six mails, not one a mail
    assert server.rsets == 5  # between two mails
    assert set(_statuses(harness).values()) == {"sent"}


def test_a_dropped_connection_is_opened_again_and_the_batch_goes_on(harness: Harness,
                                                                    smtp: tuple[_Server, int]) -> None:
    server, port = smtp
    server.close_at_mail = 3
    addresses = _queue(harness, 6)
    assert asyncio.run(drain_once(harness.judge, SmtpMailer("127.0.0.1", port, timeout=10))) == 6
    assert server.accepted == addresses  # the third sent again on a new connection, the rest after it
    assert server.connections == 2
    assert set(_statuses(harness).values()) == {"sent"}


def test_a_recipient_put_off_never_holds_the_others_back(harness: Harness, smtp: tuple[_Server, int]) -> None:
    server, port = smtp
    addresses = _queue(harness, 5)
    server.put_off = {addresses[1]}
    assert asyncio.run(drain_once(harness.judge, SmtpMailer("127.0.0.1", port, timeout=10))) == 4
    assert server.accepted == [a for a in addresses if a != addresses[1]]
    statuses = _statuses(harness)
    assert statuses.pop(addresses[1]) == "pending" and set(statuses.values()) == {"sent"}
    with harness.judge.sessions.begin() as db:
        row = db.scalars(select(OutboundMessage).where(OutboundMessage.status == "pending")).one()
        assert "451" in (row.last_error or "") and row.next_try > harness.clock.now  # tried again later
    server.put_off = set()
    harness.clock.advance(minutes=11)
    assert asyncio.run(drain_once(harness.judge, SmtpMailer("127.0.0.1", port, timeout=10))) == 1
    assert set(_statuses(harness).values()) == {"sent"}


def test_a_batch_is_leased_in_one_statement_and_recorded_in_one(harness: Harness, smtp: tuple[_Server, int]) -> None:
    server, port = smtp
    _queue(harness, 8)
    writes: list[str] = []
    engine = harness.judge.sessions.kw["bind"]

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE OUTBOUND_MESSAGES"):
            writes.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        assert asyncio.run(drain_once(harness.judge, SmtpMailer("127.0.0.1", port, timeout=10))) == 8
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(writes) == 2, writes  # the lease of the eight, then their status


@pytest.fixture
def pg_harness(postgres_template: PostgresTemplate) -> Iterator[Harness]:
    require_postgres()
    with postgres_template.copy() as url:
        harness = _harness(url)
        yield harness
        harness.judge.sessions.kw["bind"].dispose()


def test_two_drains_share_the_outbox_without_waiting_for_each_other(pg_harness: Harness) -> None:
    """While one drain holds the lease of a batch (its transaction still open), another leases the
    next mails at once: rows another drain holds are skipped, never waited for."""
    from app.mail.outbound import drain

    harness = pg_harness
    batch = drain.BATCH
    _queue(harness, batch + 5)
    holding, release = threading.Event(), threading.Event()
    first: list[int] = []
    real = drain.transaction

    def held_open(judge: Any) -> Any:  # the first drain's lease transaction stays open until released
        class Held:
            def __enter__(self) -> Any:
                self.inner = real(judge)
                return self.inner.__enter__()

            def __exit__(self, *exc: Any) -> Any:
                holding.set()
                release.wait(30)
                return self.inner.__exit__(*exc)
        return Held()

    def first_drain() -> None:
        rows, _ = drain._lease(harness.judge, batch, set())
        first.extend(r.id for r in rows)

    drain.transaction = held_open  # type: ignore[assignment]
    try:
        worker = threading.Thread(target=first_drain)
        worker.start()
        assert holding.wait(30)
    finally:
        drain.transaction = real  # type: ignore[assignment]
    second: list[int] = []
    other = threading.Thread(target=lambda: second.extend(r.id for r in drain._lease(harness.judge, batch, set())[0]))
    other.start()
    other.join(10)
    waited = other.is_alive()
    release.set()
    worker.join(30)
    other.join(30)
    assert not waited, "the second drain waited for the first one's lease"
    assert len(first) == batch and len(second) == 5 and not set(first) & set(second)


def test_a_batch_goes_over_several_sessions_each_recipient_s_mails_in_order(harness: Harness,
                                                                           smtp: tuple[_Server, int]) -> None:
    """A large batch is shared between a few sessions (their round trips overlap), a recipient's
    mails all over one of them: they arrive in the order they were queued."""
    server, port = smtp
    with unit(harness.judge) as uow:
        for n in range(36):
            enqueue(uow, harness.judge, to=f"p{n % 12}@example.com", subject=f"mail {n}", text=f"{n}\n")
    assert asyncio.run(drain_once(harness.judge, SmtpMailer("127.0.0.1", port, timeout=10))) == 36
    assert 1 < server.connections <= 4
    for n in range(12):
        mine = [subject for to, subject in server.subjects if to == f"p{n}@example.com"]
        assert mine == [f"mail {n}", f"mail {n + 12}", f"mail {n + 24}"]
    assert set(_statuses(harness).values()) == {"sent"}


class _Died(BaseException):
    """The process dies at a crash point (not an error the drain may catch)."""


def test_a_crash_mid_batch_sends_the_batch_again_with_the_same_message_ids(harness: Harness) -> None:
    """At least once: killed after the server accepted three mails of a batch of five, before the
    batch's outcome was written; once the lease runs out, the five go (again), each with its
    Message-ID, so that a reader's client (or the MTA) knows the copy."""
    from app.mail.outbound.mailer import MemoryMailer

    addresses = _queue(harness, 5)
    accepted: list[str] = []

    def die_at_the_third(point: str) -> None:
        if point == "drain:after_send":
            accepted.append(point)
            if len(accepted) == 3:
                raise _Died(point)

    mailer = MemoryMailer()
    harness.judge.crash = die_at_the_third
    with pytest.raises(_Died):
        asyncio.run(drain_once(harness.judge, mailer))
    harness.judge.crash = lambda point: None
    first = [message_from_bytes(m.message_bytes)["Message-ID"] for m in mailer.sent]
    assert len(first) == 3 and set(_statuses(harness).values()) == {"sending"}
    assert asyncio.run(drain_once(harness.judge, mailer)) == 0  # leased: not before the lease runs out
    harness.clock.advance(seconds=harness.judge.settings.outbox_lease_seconds + 1)
    assert asyncio.run(drain_once(harness.judge, mailer)) == 5
    again = [message_from_bytes(m.message_bytes)["Message-ID"] for m in mailer.sent[3:]]
    assert set(first) <= set(again) and len(set(again)) == 5
    assert sorted(m.recipients[0] for m in mailer.sent[3:]) == sorted(addresses)
    assert set(_statuses(harness).values()) == {"sent"}


def _maps(harness: Harness, count: int) -> list[int]:
    """``count`` maps recorded (not drawn), as turns record them."""
    from app import jsonapi
    from app.db.models import MapImage

    with harness.judge.sessions.begin() as db:
        images = [MapImage(digest=f"{n:064d}", game_id=None, phase="S1901M", kind="results", renderer_version=0,
                           variant="standard", title=f"game{n}", state=jsonapi.initial_state("standard"), result=None)
                  for n in range(count)]
        db.add_all(images)
        db.flush()
        return [image.id for image in images]


def test_a_mail_never_waits_for_another_game_s_map(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sender sends what is ready (a mail whose map is drawn, or has none) and leaves a mail
    whose map is not drawn yet to the painter: it never draws a map itself."""
    from app.mail.outbound import drain
    from app.mail.outbound.mailer import MemoryMailer
    from app.services.results import maps

    waiting, ready = _maps(harness, 2)
    with unit(harness.judge) as uow:
        db = uow.session
        assert maps.draw_due_map(uow) is not None  # the oldest: ``waiting``
        db.flush()
    with unit(harness.judge) as uow:  # draw the second one, leave the first undrawn
        db = uow.session
        from app.db.models import MapImage

        first, second = db.get_one(MapImage, waiting), db.get_one(MapImage, ready)
        second.png, first.png = first.png, None
        for n, map_id in enumerate([waiting, ready, waiting, None, ready]):
            enqueue(uow, harness.judge, to=f"p{n}@example.com", subject=f"mail {n}", text="x\n", map_id=map_id)

    def no_drawing(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("the sender drew a map")

    monkeypatch.setattr(maps, "phase_map_png", no_drawing)
    mailer = MemoryMailer()
    assert asyncio.run(drain._Drain(harness.judge, mailer).send_due(100)) == 3
    assert sorted(m.recipients[0] for m in mailer.sent) == ["p1@example.com", "p3@example.com", "p4@example.com"]
    assert _statuses(harness)["p0@example.com"] == "waiting"  # for its map, out of the drain's queue


def test_two_painters_never_draw_the_same_map(pg_harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """While one painter draws a map (its transaction holds it), another takes the next map at
    once: each map is drawn once (FOR UPDATE SKIP LOCKED)."""
    from app.maps import phase_map_png as real  # what app.services.results.maps draws with
    from app.services.results import maps

    harness = pg_harness
    first, second = _maps(harness, 2)
    drawing, release = threading.Event(), threading.Event()
    titles: list[str] = []

    def slow(*args: Any, **kwargs: Any) -> bytes:
        titles.append(kwargs["title"])
        if kwargs["title"] == "game0":
            drawing.set()
            release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(maps, "phase_map_png", slow)
    drawn: list[int] = []

    def paint() -> None:
        with unit(harness.judge) as uow:
            drawn.append(maps.draw_due_map(uow) or 0)

    one = threading.Thread(target=paint)
    one.start()
    assert drawing.wait(30)
    other = threading.Thread(target=paint)
    other.start()
    other.join(20)
    waited = other.is_alive()
    release.set()
    one.join(30)
    other.join(30)
    assert not waited, "the second painter waited for the first one's map"
    assert sorted(drawn) == [first, second] and sorted(titles) == ["game0", "game1"]
    with unit(harness.judge) as uow:
        assert maps.draw_due_map(uow) is None  # nothing left to draw


def test_mails_wait_for_their_map_out_of_the_queue_and_its_painter_releases_them(harness: Harness) -> None:
    """A mail whose map is not drawn yet is queued ``waiting`` (a lease never reads it: at 10,000
    games due at once, tens of thousands wait); drawing a map releases its mails and no other; a
    mail for a map drawn already is pending at once."""
    from app.db.models import MapImage
    from app.services.results import maps

    first, second = _maps(harness, 2)
    with unit(harness.judge) as uow:
        for n, map_id in enumerate([first, second, first, None]):
            enqueue(uow, harness.judge, to=f"p{n}@example.com", subject=f"mail {n}", text="x\n", map_id=map_id)
    assert _statuses(harness) == {"p0@example.com": "waiting", "p1@example.com": "waiting",
                                  "p2@example.com": "waiting", "p3@example.com": "pending"}
    with unit(harness.judge) as uow:
        assert maps.draw_due_map(uow) == first
    assert _statuses(harness) == {"p0@example.com": "pending", "p1@example.com": "waiting",
                                  "p2@example.com": "pending", "p3@example.com": "pending"}
    with unit(harness.judge) as uow:
        enqueue(uow, harness.judge, to="p4@example.com", subject="mail 4", text="x\n", map_id=first)
        assert uow.session.get_one(MapImage, second).png is None
    assert _statuses(harness)["p4@example.com"] == "pending"


def test_a_mail_left_waiting_for_a_drawn_or_deleted_map_is_released_by_the_idle_painter(harness: Harness) -> None:
    """The safety net: a mail still ``waiting`` though its map is drawn (or gone) goes to the
    queue when the painter has nothing to draw."""
    from app.db.models import MapImage, OutboundMessage
    from app.mail.outbound import drain

    drawn, gone = _maps(harness, 2)
    with unit(harness.judge) as uow:
        for n, map_id in enumerate([drawn, gone, None]):
            enqueue(uow, harness.judge, to=f"p{n}@example.com", subject=f"mail {n}", text="x\n", map_id=map_id)
    with harness.judge.sessions.begin() as db:  # drawn behind the painter's back; the other deleted
        db.get_one(MapImage, drawn).png = b"png"
        for row in db.query(OutboundMessage).filter(OutboundMessage.map_id.is_not(None)):
            row.status = "waiting"
        db.query(OutboundMessage).filter(OutboundMessage.map_id == gone).update({"map_id": None})
        db.delete(db.get_one(MapImage, gone))
    assert set(_statuses(harness).values()) == {"waiting", "pending"}
    assert drain._paint_one(harness.judge) is False
    assert set(_statuses(harness).values()) == {"pending"}


def test_a_drain_looks_for_leases_run_out_at_its_first_lease_then_every_few_seconds(harness: Harness) -> None:
    """The look for mails whose lease ran out (a sender that crashed) reads past every mail being
    or having been sent: a drain makes it at its first lease, then at most every
    ``EXPIRED_EVERY`` seconds, not at every lease; a mail whose lease ran out is still sent."""
    from app.mail.outbound import drain
    from app.mail.outbound.mailer import MemoryMailer

    looks: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "outbound_messages.lease_until <" in statement:
            looks.append(statement)

    engine = harness.judge.sessions.kw["bind"]
    event.listen(engine, "before_cursor_execute", seen)
    try:
        mailer = MemoryMailer()
        sender = drain._Drain(harness.judge, mailer)
        _queue(harness, 3)
        assert asyncio.run(sender.send_due(100)) == 3 and len(looks) == 1
        _queue(harness, 2)
        assert asyncio.run(sender.send_due(100)) == 2 and len(looks) == 1  # a second later: not again
        with unit(harness.judge) as uow:
            enqueue(uow, harness.judge, to="late@example.com", subject="results", text="x\n")
        crashed, _ = drain._lease(harness.judge, 10, set())  # another sender leases it, then dies
        assert [row.recipients for row in crashed] == [["late@example.com"]]
        assert asyncio.run(sender.send_due(100)) == 0 and len(looks) == 2  # the crashed sender's look
        harness.clock.advance(seconds=harness.judge.settings.outbox_lease_seconds + 1)
        looks.clear()
        assert asyncio.run(sender.send_due(100)) == 1 and len(looks) == 1  # the lease ran out: sent
        assert _statuses(harness)["late@example.com"] == "sent"
    finally:
        event.remove(engine, "before_cursor_execute", seen)
