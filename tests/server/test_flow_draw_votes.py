"""Issue 22.4: a draw vote stands until withdrawn (njudge, DPjudge), through processed phases."""

from __future__ import annotations

from datetime import timedelta

from app.db import queries
from app.scheduler import tick
from tests.server.conftest import POWERS, Harness, hold_all, player, signon

GM = "SIGNON master@alpha masterpw\n"


def _game_status(harness: Harness) -> tuple[str, str | None]:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        return game.status, game.phase


def test_draw_votes_stand_through_processed_phases(started: Harness) -> None:
    for power in POWERS[:-1]:
        started.send(player(power), signon(power) + "SET DRAW")
        assert "Your vote stands until you withdraw it (SET NODRAW)." in started.last_reply(player(power))
    started.send(player("ENGLAND"), signon("ENGLAND") + "SET NODRAW")
    started.send("gm@example.com", GM + "PROCESS")
    hold_all(started)
    started.send("gm@example.com", GM + "PROCESS")
    assert _game_status(started)[0] == "active"
    started.send(player("ENGLAND"), signon("ENGLAND") + "SET DRAW")
    assert _game_status(started)[0] == "active"  # Turkey has not voted
    started.send(player("TURKEY"), signon("TURKEY") + "SET DRAW")
    assert _game_status(started)[0] == "finished"
    assert "declared a draw between" in started.outbox(kind="end")[-1].body_text


def test_a_standing_vote_ends_the_game_when_the_last_voter_goes_to_civil_disorder(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET NMR cd\nSET GRACE 0")
    for power in POWERS[:-1]:
        started.send(player(power), signon(power) + "SET DRAW")
    hold_all(started)
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        queries.clear_orders(db, game.id, "S1901M", "TURKEY")
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        game.deadline = phase.deadline = started.clock.now + timedelta(hours=1)  # the deadline passes
    started.clock.advance(hours=2)
    assert tick(started.judge).processed == ["alpha"]
    assert _game_status(started) == ("finished", "F1901M")
    assert "declared a draw between" in started.outbox(kind="end")[-1].body_text
