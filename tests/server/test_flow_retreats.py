"""Issue 8.1 by mail: a retreat phase is opened only for units that can retreat, and a unit
that cannot retreat is never "without orders" (no reminder, lateness, NMR or civil disorder)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from app.db import queries
from app.scheduler import tick
from tests.server.conftest import Harness, player, signon

BASE_UNITS: dict[str, list[str]] = {
    "AUSTRIA": ["A BUD", "A VIE", "F TRI"], "ENGLAND": ["A LVP", "F EDI", "F LON"],
    "FRANCE": ["A MAR", "A PAR", "F BRE"], "GERMANY": ["A BER", "A MUN", "F KIE"],
    "ITALY": ["A ROM", "A VEN", "F NAP"], "RUSSIA": ["A ARM", "F BLA", "A MOS", "F STP/SC"],
    "TURKEY": ["F ANK", "A CON", "A SMY", "A BUL"],
}
CENTERS = {"AUSTRIA": ["BUD", "TRI", "VIE"], "ENGLAND": ["EDI", "LON", "LVP"], "FRANCE": ["BRE", "MAR", "PAR"],
           "GERMANY": ["BER", "KIE", "MUN"], "ITALY": ["NAP", "ROM", "VEN"],
           "RUSSIA": ["MOS", "SEV", "STP", "WAR"], "TURKEY": ["ANK", "BUL", "CON", "SMY"]}


def _set_position(harness: Harness, units: dict[str, list[str]]) -> None:
    state: dict[str, Any] = {"variant": "standard", "phase": "S1902M", "units": units, "centers": CENTERS,
                             "dislodged": {}}
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        phase.code = game.phase = "S1902M"
        phase.state_before = state
        game.deadline = phase.deadline = harness.clock.now + timedelta(hours=48)


def _order_all(harness: Harness, special: dict[str, list[str]], units: dict[str, list[str]]) -> None:
    for power, own in units.items():
        lines = special.get(power) or [f"{u} H" for u in own]
        harness.send(player(power), signon(power) + "\n".join(lines))


def _phase(harness: Harness) -> str:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase is not None
        return game.phase


def test_no_retreat_phase_when_the_dislodged_unit_cannot_retreat(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET REMINDER 6\nSET NMR cd\nSET EARLY 0")
    _set_position(started, BASE_UNITS)
    _order_all(started, {"RUSSIA": ["A Arm - Ank", "F Bla S A Arm - Ank", "A Mos H", "F StP/sc H"]}, BASE_UNITS)
    started.clock.advance(minutes=1)
    assert tick(started.judge).processed == ["alpha"]
    assert _phase(started) == "F1902M"
    body = started.outbox(to=player("TURKEY"), kind="results")[-1].body_text
    assert "Retreats for Spring of 1902" not in body
    # Nothing is owed for the destroyed fleet, all the way to the next deadline and past it.
    started.clock.advance(hours=45)
    tick(started.judge)
    for kind in ("reminder", "late"):
        for mail in started.outbox(to=player("TURKEY"), kind=kind):
            assert "F ANK" not in mail.body_text, mail.body_text
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, "TURKEY")
        assert seat is not None and seat.status == "active" and seat.misses == 0


def test_a_unit_that_cannot_retreat_is_never_without_orders(started: Harness) -> None:
    units = {**BASE_UNITS, "AUSTRIA": ["A GAL", "A VIE", "F TRI"],
             "RUSSIA": ["A ARM", "F BLA", "A UKR", "A WAR", "F STP/SC"]}
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET REMINDER 0\nSET NMR cd\nSET EARLY 0")
    _set_position(started, units)
    _order_all(started, {"RUSSIA": ["A Arm - Ank", "F Bla S A Arm - Ank", "A Ukr - Gal", "A War S A Ukr - Gal",
                                    "F StP/sc H"]}, units)
    started.clock.advance(minutes=1)
    assert tick(started.judge).processed == ["alpha"]
    assert _phase(started) == "S1902R"  # the Austrian army in Galicia can retreat
    started.send(player("TURKEY"), signon("TURKEY") + "STATUS")
    reply = started.last_reply(player("TURKEY"))
    assert "Units still without orders" not in reply, reply  # F ANK cannot retreat: nothing is owed
    assert "F ANK has nowhere to retreat: it will be disbanded." in reply, reply  # and the player is told why
    # Only Austria's retreat is wanted: with it, the phase is ready to process early.
    started.send(player("AUSTRIA"), signon("AUSTRIA") + "A Gal - Boh")
    started.clock.advance(minutes=1)
    assert tick(started.judge).processed == ["alpha"]
    assert _phase(started) == "F1902M"
    assert "No orders received from" not in started.outbox(kind="results")[-1].body_text
