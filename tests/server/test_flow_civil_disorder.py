"""Issue 8.4: civil disorder ends when the player orders again."""

from __future__ import annotations

from datetime import timedelta

from app.db import queries
from app.scheduler import tick
from tests.server.conftest import Harness, hold_all, player, signon


def _status(harness: Harness, power: str) -> str:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, power)
        assert seat is not None
        return seat.status


def _miss_spring(harness: Harness) -> None:
    harness.send("gm@example.com", "SIGNON master@alpha masterpw\nSET NMR cd\nSET GRACE 0")
    hold_all(harness)
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        queries.clear_orders(db, game.id, "S1901M", "TURKEY")
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        game.deadline = phase.deadline = harness.clock.now + timedelta(hours=1)  # the deadline passes
    harness.clock.advance(hours=2)
    assert tick(harness.judge).processed == ["alpha"]
    assert _status(harness, "TURKEY") == "cd"


def test_civil_disorder_ends_when_the_player_orders_again(started: Harness) -> None:
    _miss_spring(started)
    started.send(player("TURKEY"), signon("TURKEY") + "A Con H")
    assert _status(started, "TURKEY") == "active"


def test_the_masters_orders_do_not_end_civil_disorder(started: Harness) -> None:
    _miss_spring(started)
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nBECOME TURKEY\nA Con H")
    assert _status(started, "TURKEY") == "cd"
