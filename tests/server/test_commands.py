"""The command language: sign-on styles, orders, per-unit and whole-set replacement, refusals."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.db.models import InboundMessage
from app.mail.commands.catalogue import REGISTRY
from app.mail.commands.registry import find, split_lines
from app.services.ruleset import variant_data
from tests.server.conftest import Harness, player, signon


def test_finder_prefers_longest_command() -> None:
    assert REGISTRY
    found = find("set  wait")
    assert found is not None and found.name == "SET WAIT"
    found = find("Set Deadline 2026-03-05 20:00")
    assert found is not None and found.name == "SET DEADLINE" and found.args == "2026-03-05 20:00"
    assert find("A Par-Bur") is None
    found = find("sign on Falpha pw")
    assert found is not None and found.name == "SIGN ON" and found.args == "Falpha pw"


def test_split_lines_drops_quotes_and_comments() -> None:
    assert split_lines("LIST\r\n> quoted\n// comment\nA PAR H<br>\n") == ["LIST", "A PAR H", ""]


def test_both_signon_styles(started: Harness) -> None:
    started.send(player("FRANCE"), "SIGNON france@alpha pwfrance\nA Par H")
    assert "Signed on as France" in started.last_reply(player("FRANCE"))
    started.send(player("GERMANY"), "signon Galpha pwgermany\nA Ber H")
    assert "Signed on as Germany" in started.last_reply(player("GERMANY"))


def test_last_order_for_a_unit_wins(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur\nA Par-Pic")
    reply = started.last_reply(player("FRANCE"))
    assert "A PAR - PIC" in reply and "A PAR - BUR" not in reply
    started.send(player("FRANCE"), signon("FRANCE") + "A Mar H")
    reply = started.last_reply(player("FRANCE"))
    assert "A PAR - PIC" in reply and "A MAR H" in reply


def test_whole_set_mode_saves_nothing_on_error(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET ORDERS whole_set")
    started.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur\nA Mar H")
    started.send(player("FRANCE"), signon("FRANCE") + "A Par-Pic\nF Bre-Burgundy")
    reply = started.last_reply(player("FRANCE"))
    assert "nothing from this message was saved" in reply
    assert "A PAR - BUR" in reply and "A MAR H" in reply
    started.send(player("FRANCE"), signon("FRANCE") + "F Bre H")
    reply = started.last_reply(player("FRANCE"))
    assert "F BRE H" in reply and "A PAR - BUR" not in reply


def test_clear_and_status(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur\nCLEAR\nSTATUS")
    reply = started.last_reply(player("FRANCE"))
    assert "Orders cleared." in reply
    assert "Units still without orders: A MAR, A PAR, F BRE." in reply


def test_orders_in_advance_with_phase(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "PHASE F1901M\nA Par H")
    reply = started.last_reply(player("FRANCE"))
    assert "Stored for F1901M" in reply


def test_personal_reply_address_signs_on(started: Harness) -> None:
    token = started.outbox(to=player("ITALY"), kind="start")[0].reply_to
    assert token and token.startswith("judge+")
    started.send(player("ITALY"), "A Ven H\nF Nap-Ion", to=token)
    reply = started.last_reply(player("ITALY"))
    assert "A VEN H" in reply and "F NAP - ION" in reply


def test_other_sender_with_password_copies_player_of_record(started: Harness) -> None:
    started.send("friend@example.com", signon("FRANCE") + "A Par H")
    assert "A PAR H" in started.last_reply("friend@example.com")
    copy = started.outbox(to=player("FRANCE"), kind="copy")
    assert copy and "friend@example.com" in copy[-1].body_text


def test_foreign_units_and_unknown_game_refused(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Mun-Ruh")
    assert "the unit at Munich is not yours" in started.last_reply(player("FRANCE"))
    started.send(player("ITALY"), "SIGNON Fnogame pw\nA Par-Bur")  # of record: its answers quote it
    reply = started.last_reply(player("ITALY"))
    assert "there is no game called 'nogame'" in reply and "Unprocessed portion" in reply


def test_not_signed_on(harness: Harness) -> None:
    harness.send("x@example.com", "A Par-Bur")
    assert "you are not signed on" in harness.last_reply("x@example.com")


def test_automatic_mail_is_never_answered(harness: Harness) -> None:
    out = harness.send("daemon@example.com", "LIST", headers={"Auto-Submitted": "auto-replied"})
    assert out.status == "ignored"
    assert harness.outbox(to="daemon@example.com") == []


def test_same_message_id_processed_once(harness: Harness) -> None:
    first = harness.send("x@example.com", "LIST", message_id="<same@test>")
    second = harness.send("x@example.com", "LIST", message_id="<same@test>")
    assert (first.status, second.status) == ("done", "duplicate")
    assert len(harness.outbox(to="x@example.com")) == 1


def test_failing_message_is_retried_then_quarantined(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> object:
        raise RuntimeError("engine exploded")

    harness.send("gm@example.com", "CREATE beta pw")
    monkeypatch.setattr(variant_data, "variant_data", broken)
    outcomes = [harness.send("gm@example.com", "SIGNON master@beta pw\nJOIN beta pw", message_id="<boom@test>",
                             confirm=False).status for _ in range(3)]
    assert outcomes == ["failed", "failed", "quarantined"]
    with harness.judge.sessions.begin() as db:
        row = db.scalars(select(InboundMessage).where(InboundMessage.message_id == "<boom@test>")).one()
        assert row.status == "quarantined" and row.attempts == 3
    assert harness.outbox(to=harness.judge.settings.admin_address, kind="quarantine")


def test_help_list_history_summary(started: Harness) -> None:
    started.send(player("ITALY"), "HELP\nLIST\nLIST alpha\nSUMMARY alpha\nHISTORY alpha\nMAP alpha")
    reply = started.last_reply(player("ITALY"))
    for text in ("SIGNON Fgame password", "Games on this judge", "Game 'alpha'", "Summary of game 'alpha'",
                 "has no results yet", "The map of game 'alpha' in S1901M is attached"):
        assert text in reply


def test_set_password_and_address(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "SET PASSWORD newpassword\nSET ADDRESS new@example.com")
    reply = started.last_reply(player("FRANCE"))
    assert "newpassword" not in reply and "Password changed." in reply
    started.send("new@example.com", "SIGNON Falpha newpassword\nA Par H")
    assert "Signed on as France" in started.last_reply("new@example.com")


def test_signoff_ends_and_signature_ignored(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Par H\nSIGNOFF\nA Mar-Spa")
    assert "A MAR - SPA" not in started.last_reply(player("FRANCE"))
    started.send(player("FRANCE"), signon("FRANCE") + "A Mar H\n-- \nJohn, A Par-Pic")
    assert "A PAR - PIC" not in started.last_reply(player("FRANCE"))


def test_orders_in_advance_become_current(started: Harness) -> None:
    from app.scheduler import tick
    from tests.server.conftest import hold_all

    started.send(player("FRANCE"), signon("FRANCE") + "PHASE F1901M\nA Par-Bur\nA Par-Pic\nA Mar-Nowhere")
    hold_all(started)
    assert tick(started.judge).processed == ["alpha"]
    started.send(player("FRANCE"), signon("FRANCE") + "STATUS")
    reply = started.last_reply(player("FRANCE"))
    assert "A PAR - PIC" in reply and "A PAR - BUR" not in reply
    assert "Units still without orders: A MAR, F BRE." in reply


def test_mail_from_the_judge_itself_is_ignored(harness: Harness) -> None:
    assert harness.send("judge@judge.test", "LIST").status == "ignored"
    assert harness.send("judge+abc@judge.test", "LIST").status == "ignored"
    assert harness.outbox() == []
