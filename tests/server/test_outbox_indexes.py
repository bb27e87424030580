"""The drain's queries read the outbox from its partial indexes on PostgreSQL, however many mails it
has sent (issue 26): the leases that ran out from ``ix_outbound_messages_sending``, the pending mails
from ``ix_outbound_messages_pending``, and no index over every mail's status is kept up to date."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.dialects import postgresql

from app.db.base import utcnow
from app.db.models import OutboundMessage
from app.db.session import make_engine
from app.db.statuses import OutboundStatus
from app.mail.outbound.drain import _due
from tests.support.databases import PostgresTemplate


@pytest.fixture
def outbox_url(postgres_template: PostgresTemplate) -> Iterator[str]:
    """A migrated PostgreSQL database with 5,000 mails sent and a few being sent."""
    with postgres_template.copy() as url:
        engine = make_engine(url)
        with engine.begin() as db:
            db.execute(text(
                "INSERT INTO outbound_messages (message_id, kind, recipients, subject, body_text, status, attempts, "
                "next_try, lease_until, created_at) SELECT '<' || n || '@x>', 'results', '[\"p@x\"]', 's', 'b', "
                "CASE WHEN n % 1000 = 0 THEN 'sending' ELSE 'sent' END, 1, now(), "
                "CASE WHEN n % 1000 = 0 THEN now() + interval '1 minute' END, now() FROM generate_series(1, 5000) n"))
            db.execute(text("ANALYZE outbound_messages"))
        engine.dispose()
        yield url


def _plan(url: str, query: object) -> str:
    sql = str(query.compile(dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}))  # type: ignore[attr-defined]
    engine = make_engine(url)
    try:
        with engine.connect() as db:
            return "\n".join(row[0] for row in db.execute(text(f"EXPLAIN {sql}")))
    finally:
        engine.dispose()


def test_the_leases_run_out_are_read_from_the_index_of_the_mails_being_sent(outbox_url: str) -> None:
    query = _due(OutboundStatus.SENDING, 50, OutboundMessage.lease_until < utcnow() - timedelta(seconds=1))
    assert "ix_outbound_messages_sending" in _plan(outbox_url, query)


def test_the_pending_mails_are_read_from_their_index(outbox_url: str) -> None:
    query = _due(OutboundStatus.PENDING, 50, OutboundMessage.next_try <= utcnow())
    assert "ix_outbound_messages_pending" in _plan(outbox_url, query)


def test_no_index_of_the_outbox_covers_every_mails_status(outbox_url: str) -> None:
    """A mail changes status three times (released, leased, sent): an index over every mail's status
    would be written each time; only partial indexes (one status each) read by status."""
    engine = make_engine(outbox_url)
    try:
        with engine.connect() as db:
            indexes: dict[str, str] = dict(db.execute(text("SELECT indexname, indexdef FROM pg_indexes "
                                                          "WHERE tablename = 'outbound_messages'")).all())
    finally:
        engine.dispose()
    columns = {name: re.search(r"USING \w+ \(([^)]*)\)", definition).group(1)  # type: ignore[union-attr]
               for name, definition in indexes.items()}
    over_status = {name for name, keys in columns.items() if "status" in keys}
    assert over_status == set()
    assert "WHERE" in indexes["ix_outbound_messages_sending"]
