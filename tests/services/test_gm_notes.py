"""The GM's notes are rows (issue 27.3): written by NOTE (and the line on a settings change),
printed once with the next results, in the order written, whether or not they were flushed yet."""

from __future__ import annotations

from app.db.models import Game
from app.services.games import gm
from app.services.games.admin import create_game_direct
from app.services.kernel.actor import Actor, Role
from app.services.results.gm_notes import pending_gm_notes, take_gm_notes
from tests.support.fake_uow import FakeUnitOfWork, fake_judge


def test_notes_are_rows_taken_once_in_the_order_written() -> None:
    judge = fake_judge()
    with FakeUnitOfWork(judge) as unit:
        game_id = create_game_direct(judge, unit, "alpha", "gm@example.com", "pw", start=False).created.game_id
        actor = Actor("gm@example.com", Role.GM, game_id)
        game = unit.session.get_one(Game, game_id)
        gm.add_note(judge, unit, actor, "first")
        unit.session.flush()
        gm.add_note(judge, unit, actor, "second")  # not flushed yet: the turn of the same mail prints it
        assert "notes" not in game.settings
        assert take_gm_notes(unit, game) == ["first", "second"]
        unit.session.flush()
        assert take_gm_notes(unit, game) == [] and pending_gm_notes(unit.session, game) == []
