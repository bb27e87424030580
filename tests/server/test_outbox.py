"""The outbox drain: sends once, retries while the server is down, never blocks on a bad mail."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import select

from app.db.models import OutboundMessage
from app.mail.outbound.drain import drain_once
from app.mail.outbound.mailer import MemoryMailer
from app.services.mailout.outbox import enqueue
from tests.server.conftest import Harness
from tests.support.units import unit


def _queue(harness: Harness, to: str = "p@example.com") -> None:
    with unit(harness.judge) as uow:
        enqueue(uow, harness.judge, to=to, subject="hello", text="body\n")


def _statuses(harness: Harness) -> list[str]:
    with harness.judge.sessions.begin() as db:
        return list(db.scalars(select(OutboundMessage.status).order_by(OutboundMessage.id)))


def test_sent_exactly_once(harness: Harness) -> None:
    mailer = MemoryMailer()
    _queue(harness)
    assert asyncio.run(drain_once(harness.judge, mailer)) == 1
    assert asyncio.run(drain_once(harness.judge, mailer)) == 0
    assert len(mailer.sent) == 1 and b"Message-ID: <" in mailer.sent[0].message_bytes
    assert _statuses(harness) == ["sent"]


def test_retries_with_backoff_while_down(harness: Harness) -> None:
    mailer = MemoryMailer()
    mailer.unavailable = True
    _queue(harness)
    _queue(harness, "q@example.com")
    assert asyncio.run(drain_once(harness.judge, mailer)) == 0
    assert _statuses(harness) == ["pending", "pending"]
    mailer.unavailable = False
    assert asyncio.run(drain_once(harness.judge, mailer)) == 0  # backoff: not due yet
    harness.clock.advance(minutes=11)
    assert asyncio.run(drain_once(harness.judge, mailer)) == 2
    assert _statuses(harness) == ["sent", "sent"]


def test_bad_address_fails_without_blocking(harness: Harness) -> None:
    mailer = MemoryMailer()
    _queue(harness, "not an address")
    _queue(harness)
    assert asyncio.run(drain_once(harness.judge, mailer)) == 1
    assert _statuses(harness) == ["failed", "sent"]


def test_expired_lease_is_sent_again_with_the_same_message_id(harness: Harness) -> None:
    _queue(harness)
    with harness.judge.sessions.begin() as db:
        row = db.scalars(select(OutboundMessage)).one()
        row.status, row.lease_until = "sending", harness.clock.now - timedelta(seconds=1)
        message_id = row.message_id
    mailer = MemoryMailer()
    assert asyncio.run(drain_once(harness.judge, mailer)) == 1
    assert message_id.encode() in mailer.sent[0].message_bytes
