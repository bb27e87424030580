"""Issue 19.5: text a person sent is stored whole on PostgreSQL, or refused at the door with a
clear error (SQLite stores any length in a VARCHAR; PostgreSQL refuses it, and used to lose the
whole mail).  Every test here runs the mail door on a real, freshly migrated PostgreSQL database.
"""

from __future__ import annotations

import random
import string
from collections.abc import Iterator

import pytest
from sqlalchemy import String, Text, select

from app.db import models_web  # noqa: F401  (its tables in the metadata)
from app.db.base import Base
from app.db.models import Game, InboundMessage, OrderRow
from app.mail.runners.inbound import handle_raw
from tests.server.conftest import Harness, player, signon
from tests.support.databases import PostgresTemplate


@pytest.fixture
def database_url(postgres_template: PostgresTemplate) -> Iterator[str]:
    """Overrides the server tests' database: PostgreSQL only (a migrated copy of the template)."""
    with postgres_template.copy() as url:
        yield url


def _no_order(length: int, seed: int = 19) -> str:
    """A line of ``length`` letters and digits that is no order (random: PostgreSQL cannot compress it)."""
    rng = random.Random(seed)
    return "X" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(length - 1))


def _orders(harness: Harness, power: str, phase: str) -> dict[str, str]:
    with harness.judge.sessions.begin() as db:
        rows = db.scalars(select(OrderRow).where(OrderRow.power == power, OrderRow.phase == phase)).all()
        return {row.unit: row.line for row in rows}


def _inbound_status(harness: Harness, inbound_id: int | None) -> str:
    with harness.judge.sessions.begin() as db:
        return db.get_one(InboundMessage, inbound_id).status


def test_a_long_line_that_is_no_order_keeps_the_mails_orders(started: Harness) -> None:
    """The issue's repro: SIGNON / PHASE F1901M / a 60-character line that is not an order.  The unit
    key of that line overflowed VARCHAR(40): the mail was quarantined and its orders lost."""
    long_line = _no_order(60)
    out = started.send(player("FRANCE"), signon("FRANCE") + "A PAR - BUR\nPHASE F1901M\nA MAR - SPA\n" + long_line)
    assert out.status == "done", out.error
    assert _inbound_status(started, out.inbound_id) == "done"
    assert set(_orders(started, "FRANCE", "S1901M")) == {"A PAR"}
    advance = _orders(started, "FRANCE", "F1901M")
    assert "A MAR - SPA" in advance.values() and long_line in advance.values(), advance
    reply = started.last_reply(player("FRANCE"))
    assert "A MAR - SPA" in reply and long_line in reply
    assert "quarantined" not in reply.lower()


def test_lines_of_any_length_are_stored_whole(started: Harness) -> None:
    """Order lines are TEXT (no silent cut at 400 characters), and the key of a line that names no
    unit stays short: a 3,000-character line would overflow PostgreSQL's b-tree index otherwise."""
    huge, long = _no_order(3000, seed=5), _no_order(450, seed=6)
    out = started.send(player("FRANCE"), signon("FRANCE") + f"PHASE F1901M\n{huge}\n{long}\nA MAR - SPA")
    assert out.status == "done", out.error
    advance = _orders(started, "FRANCE", "F1901M")
    assert huge in advance.values() and long in advance.values(), [len(v) for v in advance.values()]
    assert all(len(unit) <= 40 for unit in advance), list(advance)


def test_an_over_long_phase_is_refused_clearly(started: Harness) -> None:
    """PHASE with a code longer than any phase code is an error line; the orders after it count
    for the current phase (it overflowed orders.phase, VARCHAR(12), and lost the mail)."""
    out = started.send(player("FRANCE"), signon("FRANCE") + "PHASE F19011111111111111M\nA PAR - BUR")
    assert out.status == "done", out.error
    reply = started.last_reply(player("FRANCE"))
    assert "say the phase as" in reply, reply
    assert set(_orders(started, "FRANCE", "S1901M")) == {"A PAR"}


def test_a_body_with_a_lone_surrogate_keeps_its_orders(started: Harness) -> None:
    """A UTF-7 body may decode to a lone surrogate (``+2AA-``), which no database can store as text:
    the mail failed, then was quarantined with its orders.  It is read as '?'."""
    raw = (b"From: france@example.com\r\nTo: judge@judge.test\r\nSubject: orders\r\nMessage-ID: <utf7@test>\r\n"
           b"Content-Type: text/plain; charset=utf-7\r\n\r\n" + signon("FRANCE").encode()
           + b"A PAR - BUR\r\nPHASE F1901M\r\nA MAR - SPA\r\nXX+2AA-YY\r\n")
    out = handle_raw(started.judge, raw)
    assert out.status == "done", out.error
    assert set(_orders(started, "FRANCE", "S1901M")) == {"A PAR"}
    assert set(_orders(started, "FRANCE", "F1901M").values()) == {"A MAR - SPA", "XX?YY"}


@pytest.mark.parametrize("name", ["g" + "x" * 59, "ab\x01cd"])
def test_dod3_create_with_a_bad_name_is_answered_clearly(harness: Harness, name: str) -> None:
    """DOD3 CREATE checks the name as CREATE does (games.name is VARCHAR(40); a 60-character name
    lost the mail on PostgreSQL, and a control character made every later mail of the GM fail)."""
    out = harness.send("gm@example.com", f"DOD3 CREATE {name} secret1")
    assert out.status == "done", out.error
    reply = harness.last_reply("gm@example.com")
    assert "a game name is 2 to 30 letters" in reply, reply
    with harness.judge.sessions.begin() as db:
        assert db.scalars(select(Game)).all() == []
    again = harness.send("gm@example.com", "DOD3 CREATE goodname secret1")
    assert again.status == "done"
    assert "Game 'goodname' (Days of Decision III) created" in harness.last_reply("gm@example.com")


# Issue 19.5's audit: every VARCHAR column, and why what goes in it fits.  Text a person sent is
# TEXT; a bounded column holds the judge's own words, or a value checked (or cut) at the door.
_JUDGES = "the judge's own word, code, token or hash"
_ADDRESS = "an address: 254 characters at most (bare_address, check_address)"
_POWER = "a power id of the variant's data"
_PHASE = "a phase code the judge made, or one PHASE accepted (parse_phase_words: 12 characters at most)"
BOUNDED = {
    "games.name": "check_game_name: 2 to 30 characters (CREATE, DOD3 CREATE, dashboard, CLI)",
    "games.variant": "the name of a variant the judge has (lobby.create_game refuses others)",
    "games.status": _JUDGES, "games.master_email": _ADDRESS, "games.master_password_hash": _JUDGES,
    "games.press": "none, white, grey or white/grey (checked by every door)",
    "games.phase": _PHASE, "games.reminded_phase": _PHASE, "games.paused_reason": _JUDGES,
    "players.power": _POWER, "players.role": _JUDGES, "players.email": _ADDRESS, "players.password_hash": _JUDGES,
    "players.status": _JUDGES, "players.reply_token": _JUDGES, "players.concede": _POWER,
    "phases.code": _PHASE, "phases.status": _JUDGES,
    "orders.phase": _PHASE, "orders.power": _POWER,
    "press.phase": _PHASE, "press.sender": _POWER + " (or MASTER, OBSERVER)",
    "inbound_messages.message_id": "cut to 400 where the mail is stored (store_raw)",
    "inbound_messages.source_uid": "the mailbox's own id of the mail",
    "inbound_messages.sender": _ADDRESS, "inbound_messages.subject": "cut to 400 where the mail is stored",
    "inbound_messages.status": _JUDGES,
    "outbound_messages.message_id": _JUDGES, "outbound_messages.kind": _JUDGES,
    "outbound_messages.subject": "cut to 400 where the mail is queued (outbox.enqueue)",
    "outbound_messages.in_reply_to": "the Message-ID of a stored mail (issue 19.2: cut where it is read)",
    "outbound_messages.reply_to": "the judge's own address", "outbound_messages.status": _JUDGES,
    "map_images.digest": _JUDGES, "map_images.phase": _PHASE, "map_images.kind": _JUDGES,
    "map_images.variant": "games.variant", "map_images.title": "a game's name",
    "audit_log.actor": _ADDRESS + ", or the CLI's name", "audit_log.action": _JUDGES,
    "judge_state.name": _JUDGES,
    "gm_accounts.email": _ADDRESS, "gm_accounts.password_hash": _JUDGES,
    "web_sessions.token_hash": _JUDGES, "web_sessions.csrf_token": _JUDGES,
    "sign_in_attempts.address": "cut to 320 at the door (gm_accounts.sign_in)",
    "sign_in_attempts.client": "cut to 100 at the door (gm_accounts.sign_in)",
    "email_codes.email": _ADDRESS + " (writable_recipient)", "email_codes.code_hash": _JUDGES,
    "email_codes.client": "cut to 100 at the door (gm_signup.request_code)",
    "contests.phase": "the code of a processed phase", "contests.power": _POWER, "contests.address": _ADDRESS,
    "contests.status": _JUDGES, "contests.answered_by": _ADDRESS,
    "co_masters.email": _ADDRESS + " (check_player_address)", "co_masters.added_by": _ADDRESS,
    "players.leave_token": _JUDGES, "outbound_messages.unsubscribe": "the judge's own one-time address",
    "confirmations.token": _JUDGES, "confirmations.what": _JUDGES,
    "confirmations.address": _ADDRESS + " (a mail's sender, cut to 320 where it is stored)",
    "confirmations.asked_by": _ADDRESS + " (the actor who pointed a seat at another address: a sender already stored)",
    "confirmations.secret": _JUDGES + " (a password's hash, kept until the new address confirms)",
    "confirmations.detail": "a Days of Decision III player the game has (checked by _powers_of before it is stored)",
}


def test_every_varchar_column_has_a_reason_to_be_bounded() -> None:
    """A new VARCHAR column needs a line in BOUNDED (or is TEXT); the text players send is TEXT."""
    varchar = {f"{table.name}.{column.name}" for table in Base.metadata.tables.values() for column in table.columns
               if isinstance(column.type, String) and not isinstance(column.type, Text) and column.type.length}
    assert varchar - set(BOUNDED) == set(), "VARCHAR columns without a reason: make them TEXT, or check at the door"
    assert set(BOUNDED) - varchar == set(), "BOUNDED lists columns that are no longer VARCHAR"
    text = {f"{table.name}.{column.name}" for table in Base.metadata.tables.values() for column in table.columns
            if isinstance(column.type, Text)}
    assert {"orders.unit", "orders.line", "orders.order", "players.preferences", "players.draw", "press.body",
            "contests.text"} <= text
