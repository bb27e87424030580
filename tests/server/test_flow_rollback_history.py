"""Issue 22.1: after a rollback, the orders of the phases processed before are history, not
"orders in advance"; only orders given with PHASE for a later phase are; the rollback notice
says what was cleared."""

from __future__ import annotations

from app.db import queries
from tests.server.conftest import POWERS, Harness, hold_all, player, signon

GM = "SIGNON master@alpha masterpw\n"


def _phase(harness: Harness) -> str:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase is not None
        return game.phase


def _play_to_1902(harness: Harness) -> None:
    """France moves in Spring 1901 and gives an order in advance for Spring 1902; the rest hold."""
    hold_all(harness)
    harness.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur\nPHASE S1902M\nA Bur-Mun")
    harness.send("gm@example.com", GM + "PROCESS")
    assert _phase(harness) == "F1901M"
    hold_all(harness)
    harness.send("gm@example.com", GM + "PROCESS")
    while _phase(harness) != "S1902M":
        hold_all(harness)
        harness.send("gm@example.com", GM + "PROCESS")


def test_rollback_does_not_turn_past_orders_into_orders_in_advance(started: Harness) -> None:
    _play_to_1902(started)
    started.send("gm@example.com", GM + "ROLLBACK F1901M")
    assert _phase(started) == "F1901M"
    started.send(player("FRANCE"), signon("FRANCE") + "STATUS")
    status = started.last_reply(player("FRANCE"))
    assert "in advance for S1901M" not in status
    assert "A Par-Bur" not in status  # an order of S1901M: history
    assert "Orders stored in advance for S1902M" in status  # the one PHASE order stands
    assert "A Bur-Mun" in status
    for power in POWERS:
        started.send(player(power), signon(power) + "STATUS")
        assert "in advance for S1901M" not in started.last_reply(player(power))
    # The same after processing again, and for a replacement player (no predecessor's history).
    hold_all(started)
    started.send("gm@example.com", GM + "PROCESS\nREPLACE France new@example.org newpassword")
    started.send("new@example.org", "SIGNON Falpha newpassword\nSTATUS")
    status = started.last_reply("new@example.org")
    assert "in advance for S1901M" not in status and "in advance for F1901M" not in status
    assert "A Par-Bur" not in status


def test_rollback_notice_says_what_was_cleared(started: Harness) -> None:
    _play_to_1902(started)
    started.send("gm@example.com", GM + "ROLLBACK F1901M")
    assert "Orders cleared for F1901M, " in started.last_reply("gm@example.com")
    notice = [row for row in started.outbox(to=player("ITALY")) if "rolled back" in row.subject][-1].body_text
    assert "Cleared: every order given for F1901M, " in notice
    assert "S1902M" in notice
    assert "Send your orders for F1901M again." in notice
