"""Issue 22.3: civil disorder and abandonment are announced to the GM, the players and the
observers (with a call for a replacement); processing before the deadline is no missed deadline
for a power that had time left; a retreat phase where only a power in civil disorder has units
to retreat is processed at once."""

from __future__ import annotations

from datetime import timedelta

from app import jsonapi
from app.db import queries
from app.scheduler import tick
from tests.server.conftest import POWERS, Harness, player, signon

GM = "SIGNON master@alpha masterpw\n"


def _seat(harness: Harness, power: str) -> tuple[str, int]:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, power)
        assert seat is not None
        return seat.status, seat.missed_in_row


def _others_hold(harness: Harness, absent: str) -> None:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        needs = {p: jsonapi.orderable(phase.state_before, p) for p in POWERS}
    for power, need in needs.items():
        if power != absent and need.get("units"):
            harness.send(player(power), signon(power) + "\n".join(f"{u} H" for u in need["units"]))


def _miss_deadline(harness: Harness, absent: str) -> list[str]:
    _others_hold(harness, absent)
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        game.deadline = phase.deadline = harness.clock.now + timedelta(hours=1)
    harness.clock.advance(hours=2)
    return tick(harness.judge).processed


def _notices(harness: Harness, to: str, words: str) -> list[str]:
    return [m.body_text for m in harness.outbox(to=to) if words in m.subject]


def test_civil_disorder_and_abandonment_are_announced(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET NMR cd\nSET GRACE 0\nSET EARLY off")
    started.send("watcher@example.com", "OBSERVE alpha watchpw")
    assert _miss_deadline(started, "ITALY") == ["alpha"]
    assert _seat(started, "ITALY") == ("cd", 1)
    for address in ("gm@example.com", player("FRANCE"), "watcher@example.com", player("ITALY")):
        notice = _notices(started, address, "Italy in civil disorder")
        assert len(notice) == 1, address
        assert "No orders from Italy for S1901M" in notice[0]
    assert not _notices(started, player("FRANCE"), "Italy needs a new player")
    assert _miss_deadline(started, "ITALY") == ["alpha"]
    for address in ("gm@example.com", player("FRANCE"), "watcher@example.com"):
        notice = _notices(started, address, "Italy needs a new player")
        assert len(notice) == 1, address
        assert "was abandoned: no orders for 2 deadlines in a row" in notice[0]
        assert "TAKEOVER italy@alpha <password>" in notice[0]


def test_early_processing_is_no_missed_deadline(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET NMR cd\nSET GRACE 0")
    assert _miss_deadline(started, "ITALY") == ["alpha"]
    assert _seat(started, "ITALY") == ("cd", 1)
    # Fall: everyone else orders long before the deadline; the phase runs early.
    _others_hold(started, "ITALY")
    assert tick(started.judge).processed == ["alpha"]
    assert _seat(started, "ITALY") == ("cd", 1)  # Italy had time left: not abandoned
    assert not _notices(started, player("FRANCE"), "Italy needs a new player")
    # Nor does the GM's PROCESS before the deadline count.
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase is not None
        phase = game.phase
    if phase.startswith("W"):
        started.send("gm@example.com", GM + "PROCESS")
    _others_hold(started, "ITALY")
    started.send("gm@example.com", GM + "SET EARLY off\nPROCESS")
    assert _seat(started, "ITALY") == ("cd", 1)


def test_a_retreat_phase_of_a_power_in_civil_disorder_only_is_processed_at_once(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET NMR cd\nSET GRACE 0\nSET EARLY off")
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        state = dict(phase.state_before)
        units = {power: list(items) for power, items in state["units"].items()}
        units["TURKEY"] = ["F ANK", "A BUL", "A SMY"]
        units["RUSSIA"] = ["F BLA", "A ARM", "A WAR", "F STP/SC"]
        phase.state_before = {**state, "units": units}
    started.send(player("RUSSIA"), signon("RUSSIA") + "F Bla - Ank\nA Arm S F Bla - Ank\nA War H\nF StP/sc H")
    for power in POWERS:
        if power not in ("TURKEY", "RUSSIA"):
            _others_hold_one(started, power)
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        game.deadline = phase.deadline = started.clock.now + timedelta(hours=1)
    started.clock.advance(hours=2)
    report = tick(started.judge)
    assert report.processed == ["alpha", "alpha"]  # S1901M, then S1901R at once
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase == "F1901M"
    retreats = [m.body_text for m in started.outbox(to=player("FRANCE"), kind="results")
                if "S1901R" in m.subject]
    assert len(retreats) == 1
    assert _seat(started, "TURKEY") == ("cd", 1)  # the retreat phase ran at once: no second miss


def _others_hold_one(harness: Harness, power: str) -> None:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        units = list(phase.state_before["units"].get(power) or [])
    harness.send(player(power), signon(power) + "\n".join(f"{u} H" for u in units))
