"""Issue 30 item 8: the judge's mail as clients thread and filter it (an answer's ``References`` and
``Re:`` subject, ``Auto-Submitted`` by kind, ``X-Auto-Response-Suppress``, ``List-Id``, lines that
fit 78 columns or are flowed); issue 29 item 1: every mail a seat gets says how to stop it and
carries the seat's ``List-Unsubscribe`` address, a mail to which stops it."""

from __future__ import annotations

import asyncio
from email import message_from_bytes, policy
from email.message import EmailMessage

from sqlalchemy import select

from app.db import queries
from app.db.models import Player
from app.mail.outbound.drain import drain_once
from app.mail.outbound.mailer import MemoryMailer
from app.scheduler import tick
from tests.server.conftest import POWERS, Harness, hold_all, player, signon
from tests.support.shown import shown_text, without_trailing_spaces

GM = "gm@example.com"
LIST_ID = "Game alpha <alpha.games.judge.test>"


def _sent(harness: Harness) -> list[EmailMessage]:
    mailer = MemoryMailer()
    while asyncio.run(drain_once(harness.judge, mailer)):
        pass
    out = []
    for mail in mailer.sent:
        parsed = message_from_bytes(mail.message_bytes, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        out.append(parsed)
    return out


def _to(mails: list[EmailMessage], address: str, subject: str) -> list[EmailMessage]:
    return [m for m in mails if m["To"] == address and m["Subject"] == subject]


def _leave_address(harness: Harness, address: str, game: str = "alpha") -> str:
    with harness.judge.sessions.begin() as db:
        g = queries.game_by_name(db, game)
        assert g is not None
        seat = db.scalar(select(Player).where(Player.game_id == g.id, Player.email == address))
        assert seat is not None and seat.leave_token
        return f"judge+u-{seat.leave_token}@judge.test"


def _plain(mail: EmailMessage) -> EmailMessage:
    part = mail.get_body(preferencelist=("plain",))
    assert isinstance(part, EmailMessage)
    return part


def test_an_answer_threads_with_the_mail_it_answers(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur", subject="RE: Re: AW: our orders",
                 message_id="<m3@players.test>", headers={"References": "<m1@players.test> <m2@players.test>"})
    [answer] = [m for m in _sent(started) if m["In-Reply-To"] == "<m3@players.test>"]
    assert answer["References"] == "<m1@players.test> <m2@players.test> <m3@players.test>"
    assert answer["Subject"] == "Re: our orders"  # one Re:, so that Gmail threads it with the player's mail
    assert answer["Auto-Submitted"] == "auto-replied" and answer["X-Auto-Response-Suppress"] == "All"
    assert answer["List-Id"] == LIST_ID
    assert answer["List-Unsubscribe"] is None  # an answer is no seat's standing mail
    # a mail with no subject is answered with the judge's own title, game and phase
    started.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur", subject="", message_id="<m4@players.test>")
    [untitled] = [m for m in _sent(started) if m["In-Reply-To"] == "<m4@players.test>"]
    assert untitled["Subject"] == "Diplomacy orders alpha S1901M" and untitled["References"] == "<m4@players.test>"


def test_results_press_and_start_mails_are_generated_and_each_seat_can_stop_them(started: Harness) -> None:
    started.send(player("ENGLAND"), signon("ENGLAND") + "BROADCAST\nHello, all.\nENDPRESS")
    hold_all(started)
    started.clock.advance(hours=49)
    assert tick(started.judge).processed == ["alpha"]
    mails = _sent(started)
    for power in POWERS:
        address = player(power)
        [start] = _to(mails, address, "Diplomacy game alpha has started")
        [results] = _to(mails, address, "Diplomacy results alpha S1901M")
        for mail in (start, results):
            assert mail["Auto-Submitted"] == "auto-generated" and mail["X-Auto-Response-Suppress"] == "All"
            assert mail["List-Id"] == LIST_ID
            assert str(mail["List-Unsubscribe"]).strip() == f"<mailto:{_leave_address(started, address)}?subject=unsubscribe>"
            assert "You get this mail because you play in game 'alpha'." in " ".join(shown_text(_plain(mail)).split())
    press = [m for m in mails if m["To"] == player("FRANCE") and "press" in str(m["Subject"]).lower()]
    assert press and all(m["Auto-Submitted"] == "auto-generated" and m["List-Unsubscribe"] for m in press)
    [master] = _to(mails, GM, "Diplomacy results alpha S1901M")
    assert master["List-Id"] == LIST_ID and master["Auto-Submitted"] == "auto-generated"
    assert master["List-Unsubscribe"] is None and "You get this mail" not in shown_text(_plain(master))


def test_every_line_fits_78_columns_or_the_text_is_flowed(started: Harness) -> None:
    started.send(player("FRANCE"), "HELP", message_id="<help@players.test>")
    [answer] = [m for m in _sent(started) if m["In-Reply-To"] == "<help@players.test>"]
    plain = _plain(answer)
    assert plain.get_param("format") == "flowed" and plain.get_param("delsp") == "no"
    assert [line for line in str(plain.get_content()).replace("\r\n", "\n").split("\n") if len(line) > 78] == []
    stored = [row for row in started.outbox(to=player("FRANCE"), kind="reply")][-1].body_text
    assert max(len(line) for line in stored.split("\n")) > 78  # HELP's long lines, as the dashboard shows them
    assert shown_text(plain) == without_trailing_spaces(stored)  # a flowed client shows them whole


# ------------------------------------------------------------------ the one-time address (issue 29.1)


def test_a_player_of_a_game_not_started_leaves_it_by_its_unsubscribe_address(harness: Harness) -> None:
    harness.send(GM, "CREATE beta masterpw\nSIGNOFF")
    harness.send(player("FRANCE"), "JOIN beta pwfrance1 France")
    leave = _leave_address(harness, player("FRANCE"), "beta")
    outcome = harness.send("someone@elsewhere.test", "unsubscribe", to=leave)  # the address is the proof
    assert outcome.status == "done"
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "beta")
        assert game is not None and game.players == []
    [told] = [m for m in harness.outbox(to=player("FRANCE")) if m.subject == "Diplomacy game beta: you left it"]
    assert "JOIN beta <password>" in told.body_text
    assert harness.outbox(to="someone@elsewhere.test") == []  # never to the sender


def test_a_player_of_a_running_game_is_told_to_resign(started: Harness) -> None:
    leave = _leave_address(started, player("ITALY"))
    for _ in range(5):  # the seat stays, so its address keeps working: a few answers an hour
        assert started.send(player("ITALY"), "unsubscribe", to=leave).status == "done"
    told = [m for m in started.outbox(to=player("ITALY")) if m.subject == "Diplomacy game alpha: its mail goes on"]
    assert len(told) == started.judge.settings.answer_budget == 3
    text = " ".join(told[0].body_text.split())
    assert "You play Italy in game 'alpha'" in text and "RESIGN" in text and "gm@example.com" in text
    with started.judge.sessions.begin() as db:
        assert db.scalar(select(Player).where(Player.email == player("ITALY"))) is not None


def test_an_unknown_unsubscribe_address_is_ignored(started: Harness) -> None:
    before = len(started.outbox())
    outcome = started.send(player("ITALY"), "unsubscribe", to="judge+u-nosuchtoken234@judge.test")
    assert outcome.status == "ignored" and len(started.outbox()) == before


def test_the_last_mail_of_a_game_says_no_more_will_come_and_its_address_answers_so(started: Harness) -> None:
    leave = _leave_address(started, player("TURKEY"))
    started.send(GM, "SIGNON master@alpha masterpw\nTERMINATE")
    [last] = [m for m in started.outbox(to=player("TURKEY")) if m.subject == "Diplomacy game alpha terminated"]
    assert "Game 'alpha' is over: no more of its mail will come" in last.body_text and last.unsubscribe == leave
    assert started.send(player("TURKEY"), "unsubscribe", to=leave).status == "done"
    [told] = [m for m in started.outbox(to=player("TURKEY")) if m.subject == "Diplomacy game alpha is over"]
    assert "no more of its mail" in " ".join(told.body_text.split())
    with started.judge.sessions.begin() as db:  # the player's seat stays with the game's record
        assert db.scalar(select(Player).where(Player.email == player("TURKEY"))) is not None
