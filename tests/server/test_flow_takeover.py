"""Issue 8.5: a missed deadline does not make a power vacant; TAKEOVER applies to resigned,
ejected and abandoned powers, needs the GM's approval unless takeovers are open, and the
previous player and the GM are told."""

from __future__ import annotations

from datetime import timedelta

from app import jsonapi
from app.db import queries
from app.scheduler import tick
from tests.server.conftest import POWERS, Harness, player, signon

GM = "SIGNON master@alpha masterpw\n"


def _seat(harness: Harness, power: str) -> tuple[str, str]:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, power)
        assert seat is not None
        return seat.status, seat.email


def _miss(harness: Harness, power: str) -> None:
    """Every power but ``power`` holds; the deadline passes."""
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        needs = {p: jsonapi.orderable(phase.state_before, p) for p in POWERS}
        game.deadline = phase.deadline = harness.clock.now + timedelta(hours=1)
    for other, need in needs.items():
        if other != power and need.get("units"):
            harness.send(player(other), signon(other) + "\n".join(f"{u} H" for u in need["units"]))
    harness.clock.advance(hours=2)
    assert tick(harness.judge).processed == ["alpha"]


def test_one_missed_deadline_does_not_open_the_power(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET NMR cd\nSET GRACE 0\nSET TAKEOVER open")
    _miss(started, "TURKEY")
    assert _seat(started, "TURKEY")[0] == "cd"
    started.send("stranger@example.com", "TAKEOVER turkey@alpha newpw")
    assert "is not vacant" in started.last_reply("stranger@example.com")
    assert _seat(started, "TURKEY") == ("cd", player("TURKEY"))
    started.send(player("TURKEY"), signon("TURKEY") + "STATUS")  # the player can still sign on
    assert "Error" not in started.last_reply(player("TURKEY"))


def test_two_missed_deadlines_in_a_row_abandon_the_power(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET NMR cd\nSET GRACE 0\nSET TAKEOVER open")
    _miss(started, "TURKEY")
    _miss(started, "TURKEY")
    assert _seat(started, "TURKEY")[0] == "cd"  # still told the results, but open for TAKEOVER
    started.send("gm@example.com", GM + "STATUS")
    assert "status civil disorder, abandoned" in started.last_reply("gm@example.com")
    started.send("stranger@example.com", "TAKEOVER turkey@alpha newpw")
    assert "You now play Turkey" in started.last_reply("stranger@example.com")
    told = started.outbox(to=player("TURKEY"))[-1]
    assert "Turkey has a new player" in told.subject and "no longer play it" in told.body_text
    assert any("new player" in m.body_text for m in started.outbox(to="gm@example.com"))


def test_takeover_needs_the_masters_approval_by_default(started: Harness) -> None:
    started.send(player("ITALY"), signon("ITALY") + "RESIGN")
    started.send("stranger@example.com", "TAKEOVER italy@alpha newpw")
    reply = started.last_reply("stranger@example.com")
    assert "needs the master's approval" in reply, reply
    assert _seat(started, "ITALY") == ("resigned", player("ITALY"))
    asked = started.outbox(to="gm@example.com")[-1]
    assert "stranger@example.com asks for Italy" in asked.subject
    assert "REPLACE Italy stranger@example.com" in asked.body_text
    started.send("gm@example.com", GM + "REPLACE Italy stranger@example.com")
    assert _seat(started, "ITALY") == ("active", "stranger@example.com")
    assert "no longer play it" in started.outbox(to=player("ITALY"))[-1].body_text


def test_set_takeover_refuses_other_values(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET TAKEOVER sometimes")
    assert "Error" in started.last_reply("gm@example.com")
