"""Joining, observing, resigning, taking over, conceding, and the archive commands."""

from __future__ import annotations

from app.scheduler import tick
from tests.server.conftest import POWERS, Harness, hold_all, player, signon


def test_join_with_preferences_and_full_game(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE beta pw")
    harness.send("a@example.com", "JOIN france@beta pw1")
    harness.send("b@example.com", "JOIN beta pw2 FRA GER")
    harness.send("a@example.com", "JOIN beta pw1")
    assert "already joined" in harness.last_reply("a@example.com")
    for n in range(5):
        harness.send(f"p{n}@example.com", f"JOIN beta pw{n}")
    starts = {row.recipients[0]: row.body_text for row in harness.outbox(kind="start")}
    assert "You are France" in starts["a@example.com"]
    assert "You are Germany" in starts["b@example.com"]
    harness.send("late@example.com", "JOIN beta pw")
    assert "is not forming" in harness.last_reply("late@example.com")


def test_observer_gets_results_and_broadcasts(started: Harness) -> None:
    started.send("watcher@example.com", "OBSERVE alpha pw")
    assert "You are observing" in started.last_reply("watcher@example.com")
    started.send(player("FRANCE"), signon("FRANCE") + "BROADCAST\nHello world\nENDPRESS")
    assert started.outbox(to="watcher@example.com", kind="press")
    hold_all(started)
    tick(started.judge)
    assert started.outbox(to="watcher@example.com", kind="results")
    started.send("watcher@example.com", "SIGNON Oalpha pw\nLIST alpha")
    assert "Signed on as an observer" in started.last_reply("watcher@example.com")


def test_resign_then_takeover(started: Harness) -> None:
    started.send(player("ITALY"), signon("ITALY") + "RESIGN")
    assert "You have resigned Italy" in started.last_reply(player("ITALY"))
    assert started.outbox(to="gm@example.com", kind="gm")
    started.send(player("ITALY"), signon("ITALY") + "A Ven H")
    assert "use TAKEOVER" in started.last_reply(player("ITALY"))
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET TAKEOVER open")
    started.send("new@example.com", "TAKEOVER italy@alpha newpw\nA Ven H")
    reply = started.last_reply("new@example.com")
    assert "You now play Italy" in reply and "A VEN H" in reply


def test_concession(started: Harness) -> None:
    for power in POWERS:
        if power != "RUSSIA":
            started.send(player(power), signon(power) + "SET CONCEDE Russia")
    assert "conceded to Russia" in started.outbox(kind="end")[-1].body_text


def test_history_from_to(started: Harness) -> None:
    for _ in range(2):
        hold_all(started)
        tick(started.judge)
    started.send(player("ITALY"), "HISTORY alpha FROM F1901M TO F1901M")  # to an address of record (18.3)
    reply = started.last_reply(player("ITALY"))
    assert "Movement results for Fall of 1901." in reply
    assert "Movement results for Spring of 1901." not in reply
    started.send("x@example.com", "SUMMARY alpha")
    assert "S1901M" in started.last_reply("x@example.com")
