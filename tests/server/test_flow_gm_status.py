"""Issue 8.14: STATUS from the GM lists every power with its player, status, whether its orders
are complete, the units still without orders, the WAIT flag and the time of its last mail."""

from __future__ import annotations

from app.db import queries
from tests.server.conftest import POWERS, Harness, player, signon


def test_gm_status_lists_every_power(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Par H\nF Bre H\nA Mar H")
    started.clock.advance(minutes=7)
    started.send(player("ENGLAND"), signon("ENGLAND") + "F Lon H\nSET WAIT")
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, "TURKEY")
        assert seat is not None
        seat.status = "cd"
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSTATUS")
    reply = started.last_reply("gm@example.com")
    assert "Status of game 'alpha'" in reply and "phase S1901M" in reply, reply
    blocks = reply.split("Status of game 'alpha'")[1]
    for power in POWERS:
        assert f"{power.title():<14} {player(power)}" in blocks, power
    lines = blocks.splitlines()

    def about(power: str) -> str:
        index = next(i for i, line in enumerate(lines) if line.strip().startswith(power.title()))
        return lines[index + 1]

    assert "status active; orders complete; WAIT not set; last mail Sun Mar 01 2026 12:00 UTC" in about("FRANCE")
    england = about("ENGLAND")
    assert "without orders: A LVP, F EDI" in england and "WAIT set" in england, england
    assert "last mail Sun Mar 01 2026 12:07 UTC" in england
    assert "status civil disorder" in about("TURKEY") and "without orders: A CON, A SMY, F ANK" in about("TURKEY")
    # Players joined by mail, so each has a last mail; nobody else is shown "no mail yet".
    assert "no mail yet" not in blocks


def test_a_players_status_is_unchanged(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "STATUS")
    reply = started.last_reply(player("FRANCE"))
    assert "Status of game" not in reply and "Current orders for France" in reply
