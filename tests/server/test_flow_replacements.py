"""Issue 22.5: resignations and replacements: the GM's REPLACE keeps the password the new player
chose in TAKEOVER; the welcome mail gives the phase, the units and the deadline; the board and the
observers are told; the GM is told when the game starts."""

from __future__ import annotations

from tests.server.conftest import Harness, player, signon

GM = "SIGNON master@alpha masterpw\n"


def test_the_master_is_told_when_the_game_starts(started: Harness) -> None:
    mails = [m for m in started.outbox(to="gm@example.com") if "has started" in m.subject]
    assert len(mails) == 1
    text = mails[0].body_text
    assert "Game 'alpha' (standard), of which you are the master, has started." in text
    assert "france@example.com" in text and "The first phase is S1901M" in text


def test_replace_keeps_the_password_chosen_in_takeover(started: Harness) -> None:
    started.send(player("ITALY"), signon("ITALY") + "RESIGN")
    started.send("stranger@example.com", "TAKEOVER italy@alpha chosen-secret")
    assert "needs the master's approval" in started.last_reply("stranger@example.com")
    started.send("gm@example.com", GM + "REPLACE Italy stranger@example.com")
    welcome = started.outbox(to="stranger@example.com", kind="start")[-1].body_text
    assert "the one you chose when you asked to take it over" in welcome
    started.send("stranger@example.com", "SIGNON Ialpha chosen-secret\nSTATUS")
    reply = started.last_reply("stranger@example.com")
    assert "Signed on" in reply and "Error" not in reply


def test_the_welcome_mail_gives_phase_units_and_deadline(started: Harness) -> None:
    started.send("gm@example.com", GM + "REPLACE Italy new@example.org newpassword")
    welcome = started.outbox(to="new@example.org", kind="start")[-1].body_text
    assert "You now play Italy in game 'alpha'" in welcome
    assert "SIGNON Ialpha <your password>" in welcome
    assert "Your units: A ROM, A VEN, F NAP." in welcome
    assert "Your supply centres (3): NAP, ROM, VEN." in welcome
    assert "The current phase is S1901M; the deadline for its orders is Tue Mar 03 2026 12:00 UTC." in welcome


def test_resignation_and_replacement_are_announced_to_the_board_and_observers(started: Harness) -> None:
    started.send("watcher@example.com", "OBSERVE alpha watchpw")
    started.send(player("ITALY"), signon("ITALY") + "RESIGN")
    for address in (player("FRANCE"), "watcher@example.com"):
        notice = [m for m in started.outbox(to=address) if "Italy needs a new player" in m.subject]
        assert notice, address
        assert "TAKEOVER italy@alpha <password>" in notice[-1].body_text
        assert "resigned" in notice[-1].body_text
    started.send("gm@example.com", GM + "REPLACE Italy new@example.org newpassword")
    for address in (player("FRANCE"), "watcher@example.com", "gm@example.com"):
        assert any("Italy has a new player" in m.subject for m in started.outbox(to=address)), address
    assert not any("has a new player" in m.subject for m in started.outbox(to="new@example.org"))
