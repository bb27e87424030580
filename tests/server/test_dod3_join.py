"""A forming Days of Decision III game is seated by its GM (DOD3 SEAT, rule 3.1's grouping): a JOIN
was answered "1 of 8 players" and then ignored by DOD3 START (issue 21.2, 21.7)."""

from __future__ import annotations

from sqlalchemy import select

from app.db.models import Game
from app.services.games.gm_admin import invite_player
from app.services.kernel.actor import Actor, Role
from tests.server.conftest import Harness
from tests.support.units import unit


def test_join_is_refused_and_the_invitation_says_the_gm_seats_the_players(harness: Harness) -> None:
    assert harness.send("gm@example.com", "DOD3 CREATE gazette masterpw1 PRESET 4b").status == "done"
    harness.send("joiner@example.com", "JOIN gazette joinpass1 France")
    reply = harness.last_reply("joiner@example.com")
    assert "are seated by its GM (DOD3 SEAT)" in reply, reply
    with unit(harness.judge) as uow:
        db = uow.session
        game = db.scalars(select(Game).where(Game.name == "gazette")).one()
        assert all(seat.email != "joiner@example.com" for seat in game.players)
        invite_player(harness.judge, uow, Actor("gm@example.com", Role.GM, game.id), game, "friend@example.com", "",
                      proven=False)
    text = harness.outbox(to="friend@example.com", kind="invite")[-1].body_text
    assert "the game master seats the players of 'gazette' (DOD3 SEAT)" in text and "JOIN" not in text, text
