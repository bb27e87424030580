"""Issue 8.13: a rollback without side effects: the advance orders and the seats come back as
they were at that phase; FULL (DPjudge) also the players and the settings."""

from __future__ import annotations

from datetime import timedelta

from app.db import queries
from app.scheduler import tick
from tests.server.conftest import POWERS, Harness, player, signon

GM = "SIGNON master@alpha masterpw\n"


def _seat(harness: Harness, power: str) -> tuple[str, str, int]:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, power)
        assert seat is not None
        return seat.status, seat.email, seat.misses


def _orders(harness: Harness, phase: str, power: str) -> list[str]:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        return [row.line for row in queries.orders_for(db, game.id, phase, power)]


def _to_winter_with_france_in_civil_disorder(harness: Harness) -> None:
    """Spring: Turkey takes Bulgaria; Fall: Turkey orders a build in advance, France sends nothing."""
    harness.send("gm@example.com", GM + "SET NMR cd\nSET GRACE 0")
    for power in POWERS:
        body = {"TURKEY": "A Con - Bul\nA Smy H\nF Ank H", "FRANCE": "A Par H\nA Mar H\nF Bre H"}.get(power, "STATUS")
        harness.send(player(power), signon(power) + body)
    harness.send("gm@example.com", GM + "PROCESS")
    for power in POWERS:
        if power == "FRANCE":
            continue
        body = "A Bul H\nA Smy H\nF Ank H\nPHASE W1901A\nBUILD A Con" if power == "TURKEY" else "STATUS"
        harness.send(player(power), signon(power) + body)
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase == "F1901M"
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        game.deadline = phase.deadline = harness.clock.now + timedelta(minutes=5)  # the deadline passes
    harness.clock.advance(minutes=10)
    assert tick(harness.judge).processed == ["alpha"]
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase == "W1901A"
    assert _seat(harness, "FRANCE")[0] == "cd"
    assert _orders(harness, "W1901A", "TURKEY") == ["BUILD A Con"]


def test_rollback_keeps_advance_orders_and_restores_civil_disorder(started: Harness) -> None:
    _to_winter_with_france_in_civil_disorder(started)
    started.send("gm@example.com", GM + "ROLLBACK F1901M")
    assert "Rolled back to F1901M" in started.last_reply("gm@example.com")
    assert _seat(started, "FRANCE")[0] == "active" and _seat(started, "FRANCE")[2] == 0
    assert _orders(started, "W1901A", "TURKEY") == ["BUILD A Con"]
    # Processing F1901M again brings the advance build into the winter as before.
    started.send("gm@example.com", GM + "PROCESS")
    assert _orders(started, "W1901A", "TURKEY") == ["BUILD A Con"]


def test_rollback_full_also_restores_players_and_settings(started: Harness) -> None:
    _to_winter_with_france_in_civil_disorder(started)
    started.send("gm@example.com", GM + "REPLACE France new@example.org newpw\nSET NMR hold")
    assert _seat(started, "FRANCE")[1] == "new@example.org"
    started.send("gm@example.com", GM + "ROLLBACK F1901M")
    assert _seat(started, "FRANCE")[1] == "new@example.org"  # a plain rollback keeps the new player
    started.send("gm@example.com", GM + "ROLLBACK S1901M FULL")
    assert "Rolled back to S1901M (FULL)" in started.last_reply("gm@example.com")
    status, email, _misses = _seat(started, "FRANCE")
    assert (status, email) == ("active", player("FRANCE"))
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        assert game.settings.get("nmr") != "hold"
