"""Issue 11, input that must not turn into commands: refused press, cut mail, bad addresses, empty mail."""

from __future__ import annotations

import asyncio
from email.message import EmailMessage

import pytest

from app.db import queries
from app.mail.outbound.drain import drain_once
from app.mail.outbound.mailer import MemoryMailer
from tests.server.conftest import Harness, player, signon


def _stored_orders(harness: Harness, power: str) -> list[str]:
    from sqlalchemy import select

    from app.db.models import OrderRow

    with harness.judge.sessions.begin() as db:
        return [row.line for row in db.scalars(select(OrderRow).where(OrderRow.power == power))]


# ----------------------------------------------------------------------------- 6: refused press


@pytest.mark.parametrize(("press_line", "why"), [
    ("PRESS TO Engalnd", "unknown powers: ENGALND"),
    ("PRESS TO England GREY", "white press only"),
    ("PRESS Engalnd", "say PRESS TO"),
])
def test_refused_press_never_becomes_orders(started: Harness, press_line: str, why: str) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + f"{press_line}\nF Bre-Eng\nCLEAR\nENDPRESS\nA Par H")
    reply = started.last_reply(player("FRANCE"))
    assert why in reply
    assert "The press was NOT sent" in reply and "2 lines" in reply
    assert "F BRE - ENG" not in reply and "Orders cleared" not in reply
    assert "A PAR H" in reply  # after ENDPRESS, orders again
    assert not any("BRE" in line.upper() for line in _stored_orders(started, "FRANCE"))
    assert not started.outbox(to=player("ENGLAND"), kind="press")


def test_press_of_a_stranger_is_consumed_too(started: Harness) -> None:
    started.send("x@example.com", "PRESS TO England\nLIST\nENDPRESS")
    reply = started.last_reply("x@example.com")
    assert "The press was NOT sent" in reply and "Games on this judge" not in reply


def test_press_in_a_game_without_press(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET PRESS none")
    started.send(player("FRANCE"), signon("FRANCE") + "BROADCAST\nF Bre-Mao\nENDPRESS")
    reply = started.last_reply(player("FRANCE"))
    assert "has no press" in reply and "The press was NOT sent" in reply and "F BRE - MAO" not in reply


# ----------------------------------------------------------------------------- 7: nothing cut silently


def test_order_after_64k_of_quoted_text_is_read(started: Harness) -> None:
    quoted = "\n".join(f"> old line {n} " + "x" * 60 for n in range(1500))
    started.send(player("FRANCE"), signon("FRANCE") + quoted + "\nA Par-Bur")
    assert "A PAR - BUR" in started.last_reply(player("FRANCE"))


def test_a_cut_mail_says_so_and_where(started: Harness) -> None:
    filler = "\n".join(f"A Par H  // note {n} " + "y" * 80 for n in range(800))
    started.send(player("FRANCE"), signon("FRANCE") + filler + "\nA Mar-Bur")
    reply = started.last_reply(player("FRANCE"))
    assert "this mail was cut" in reply
    assert "only its first 65536 characters were read; it was cut in line" in reply


def test_too_many_lines_says_from_which_line(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Par H\n" * 2100)
    reply = started.last_reply(player("FRANCE"))
    assert "only its first 2000 lines are read" in reply and "from line 2001 on were not read" in reply


def test_long_line_echo_is_marked_as_cut(started: Harness) -> None:
    started.send(player("ITALY"), "LIST " + "z" * 400)  # of record: a stranger's answer quotes nothing
    assert "line cut here in this echo" in started.last_reply(player("ITALY"))


# ----------------------------------------------------------------------------- 8: addresses


@pytest.mark.parametrize(("address", "ok"), [
    ("france@example.com", True),
    ("first.last+tag@mail.example.co.uk", True),
    ("josé@example.com", False),
    ("a@b", False),
    ("a@@example.com", False),
    ("a..b@example.com", False),
    ("a@-example.com", False),
    ("a@example.123", False),
    ('"quoted"@example.com', False),
])
def test_deliverable(address: str, ok: bool) -> None:
    from app.services.mailout.addresses import deliverable

    assert (deliverable(address) is None) is ok


def test_set_address_refuses_what_the_judge_cannot_write_to(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "SET ADDRESS josé@example.com")
    reply = started.last_reply(player("FRANCE"))
    assert "the judge cannot write to" in reply and "Address changed" not in reply
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, "FRANCE")
        assert seat is not None and seat.email == player("FRANCE")


def test_replace_refuses_a_bad_address(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nREPLACE France josé@example.com")
    reply = started.last_reply("gm@example.com")
    assert "the judge cannot write to" in reply and "is now played by" not in reply


def _raw_from(sender_header: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender_header
    msg["To"] = "judge@judge.test"
    msg["Subject"] = "join"
    msg["Message-ID"] = "<bad-from@test>"
    msg.set_content(body)
    return msg.as_bytes()


@pytest.mark.parametrize("body", ["JOIN beta password1", "CREATE gamma password1"])
def test_join_and_create_refuse_an_address_the_judge_cannot_write_to(harness: Harness, body: str) -> None:
    from app.mail.runners.inbound import handle_raw

    harness.send("gm@example.com", "CREATE beta masterpw")
    outcome = handle_raw(harness.judge, _raw_from("José <jose@exa_mple.com>", body))
    assert outcome.status == "ignored"  # stored, neither run nor answered (its answer could not go: issue 29.10)
    with harness.judge.sessions.begin() as db:
        assert queries.game_by_name(db, "gamma") is None
        beta = queries.game_by_name(db, "beta")
        assert beta is not None and not beta.players


def test_permanent_failure_is_reported_to_the_gm(started: Harness) -> None:
    from sqlalchemy import update

    from app.db.models import OutboundMessage, Player

    with started.judge.sessions.begin() as db:  # an address stored before the check existed
        db.execute(update(Player).where(Player.power == "FRANCE").values(email="josé@example.com"))
        db.execute(update(OutboundMessage).values(status="sent"))
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nBROADCAST\nHello\nENDPRESS")
    mailer = MemoryMailer()
    asyncio.run(drain_once(started.judge, mailer))
    asyncio.run(drain_once(started.judge, mailer))
    reports = started.outbox(to="gm@example.com", kind="undeliverable")
    assert len(reports) == 1 and "josé@example.com" in reports[0].body_text
    assert any("gm@example.com" in sent.recipients for sent in mailer.sent)


# ----------------------------------------------------------------------------- 13: empty mail


@pytest.mark.parametrize("body", ["", "-- \nJohn Smith\nSent from my phone", "\n\n   \n", "--\n"])
def test_empty_or_signature_only_mail_gets_a_helpful_answer(harness: Harness, body: str) -> None:
    harness.send("someone@example.com", body)
    reply = harness.last_reply("someone@example.com")
    assert "no commands found" in reply and "HELP" in reply and "SIGNON" in reply


def test_orders_after_the_game_ended_earlier_in_the_same_mail_are_refused_not_lost(started: Harness) -> None:
    """Found by the 100,000-mail fuzz run: the last draw vote ends the game in the middle of a
    mail; the order lines after it were stored nowhere and the mail crashed unanswered."""
    from tests.server.conftest import POWERS

    for power in POWERS[1:]:
        started.send(player(power), signon(power) + "SET DRAW")
    out = started.send(player("AUSTRIA"), signon("AUSTRIA") + "A Vie H\nSET DRAW\nA Bud H\nF Tri H")
    assert out.status == "done", out
    reply = started.last_reply(player("AUSTRIA"))
    assert "A Bud H" in reply and "is not running" in reply
