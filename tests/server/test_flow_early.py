"""Issue 8.2: a quiet period after the last orders before early processing (SET EARLY), and
WAIT honoured from every seated power, one in civil disorder too."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.db import queries
from app.scheduler import tick
from tests.server.conftest import POWERS, Harness, hold_all, player, signon

GM = "SIGNON master@alpha masterpw\n"


@pytest.fixture
def fresh(harness: Harness) -> Harness:
    """A started game with the judge's default settings for early processing."""
    harness.send("gm@example.com", "CREATE alpha masterpw\nSET REMINDER 0\nSIGNOFF")
    for power in POWERS:
        assert harness.send(player(power), f"JOIN alpha pw{power.lower()} {power}").status == "done"
    return harness


def _phase(harness: Harness) -> str:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase is not None
        return game.phase


def test_default_quiet_period_is_twenty_minutes_after_the_last_change(fresh: Harness) -> None:
    hold_all(fresh)
    assert tick(fresh.judge).processed == []
    fresh.clock.advance(minutes=15)
    fresh.send(player("FRANCE"), signon("FRANCE") + "A Par - Bur")  # a change of mind restarts the wait
    fresh.clock.advance(minutes=15)
    assert tick(fresh.judge).processed == []
    fresh.clock.advance(minutes=6)
    assert tick(fresh.judge).processed == ["alpha"]
    assert _phase(fresh) == "F1901M"


@pytest.mark.parametrize(("setting", "wait_minutes"), [("0", 0), ("45", 45)])
def test_set_early_minutes(fresh: Harness, setting: str, wait_minutes: int) -> None:
    fresh.send("gm@example.com", GM + f"SET EARLY {setting}")
    assert "Error" not in fresh.last_reply("gm@example.com")
    hold_all(fresh)
    if wait_minutes:
        fresh.clock.advance(minutes=wait_minutes - 1)
        assert tick(fresh.judge).processed == []
        fresh.clock.advance(minutes=1)
    assert tick(fresh.judge).processed == ["alpha"]


def test_set_early_refuses_nonsense(fresh: Harness) -> None:
    fresh.send("gm@example.com", GM + "SET EARLY -5")
    assert "Error" in fresh.last_reply("gm@example.com")
    fresh.send(player("FRANCE"), signon("FRANCE") + "SET EARLY 0")
    assert "Error" in fresh.last_reply(player("FRANCE"))


def test_set_early_off_waits_for_the_deadline(fresh: Harness) -> None:
    fresh.send("gm@example.com", GM + "SET EARLY off")
    hold_all(fresh)
    fresh.clock.advance(hours=2)
    assert tick(fresh.judge).processed == []


def test_wait_from_a_power_in_civil_disorder_is_honoured(started: Harness) -> None:
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, "TURKEY")
        assert seat is not None
        seat.status = "cd"
    started.send(player("TURKEY"), signon("TURKEY") + "SET WAIT")
    hold_all(started)  # Turkey's orders too: a player back from civil disorder is active again
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, "TURKEY")
        assert seat is not None
        seat.status = "cd"  # still in civil disorder, with WAIT set
    started.send(player("FRANCE"), signon("FRANCE") + "A Par H")
    started.clock.advance(minutes=5)
    assert tick(started.judge).processed == []
    started.clock.advance(hours=timedelta(days=3).total_seconds() / 3600)
    assert tick(started.judge).processed == ["alpha"]  # the deadline still holds
