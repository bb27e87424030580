"""Deadlines, early processing, WAIT, grace, NMR policies, reminders, the outage guard."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from app.db import queries
from app.db.models import Game, JudgeState, Phase
from app.scheduler import tick
from app.services.bootstrap import unit_of_work
from app.services.kernel.uow import UnitOfWork
from tests.server.conftest import POWERS, Harness, hold_all, player, signon


def _game(harness: Harness, name: str = "alpha") -> Game:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, name)
        assert game is not None
        return game


def test_early_processing_when_everyone_ordered(started: Harness) -> None:
    hold_all(started)
    assert tick(started.judge).processed == ["alpha"]
    assert _game(started).phase == "F1901M"
    results = started.outbox(to=player("TURKEY"), kind="results")
    assert len(results) == 1 and "Movement results for Spring of 1901." in results[0].body_text


def test_each_step_of_a_tick_is_a_unit_of_work_committed_once(started: Harness) -> None:
    hold_all(started)
    opened: list[UnitOfWork] = []

    def units() -> UnitOfWork:
        opened.append(unit_of_work(started.judge))
        return opened[-1]

    assert tick(started.judge, units).processed == ["alpha"]
    # The heartbeat, the due games (read only), the turn, the reminders.
    assert [unit.commits for unit in opened] == [1, 0, 1, 1]
    assert opened[2].phases  # the turn read its open phase through its unit of work


def test_wait_blocks_early_processing(started: Harness) -> None:
    started.send(player("ENGLAND"), signon("ENGLAND") + "SET WAIT")
    hold_all(started)
    assert tick(started.judge).processed == []
    started.send(player("ENGLAND"), signon("ENGLAND") + "SET NOWAIT")
    assert tick(started.judge).processed == ["alpha"]


def test_grace_then_civil_disorder(started: Harness) -> None:
    for power in POWERS[:-1]:
        started.send(player(power), signon(power) + "")
    hold_all(started)
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET NMR cd")
    with started.judge.sessions.begin() as db:  # Turkey forgets: clear its orders
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        queries.clear_orders(db, game.id, "S1901M", "TURKEY")
        game.deadline = started.clock.now + timedelta(hours=48)
    started.clock.advance(hours=49)
    report = tick(started.judge)
    assert report.graced == ["alpha"]
    assert "Your orders are late" in started.outbox(to=player("TURKEY"), kind="late")[-1].body_text
    started.clock.advance(hours=25)
    assert tick(started.judge).processed == ["alpha"]
    with started.judge.sessions.begin() as db:
        seat = queries.seat_for_power(db, _game(started).id, "TURKEY")
        assert seat is not None and seat.status == "cd"
    assert "No orders received from: Turkey." in started.outbox(kind="results")[-1].body_text


def test_excused_miss_extends_the_deadline(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET NMR excuse:1")
    before = _game(started).deadline
    assert before is not None
    started.clock.now = before + timedelta(minutes=1)
    report = tick(started.judge)
    assert report.graced == ["alpha"] and report.processed == []
    after = _game(started).deadline
    assert after is not None and after > before


def test_reminder_before_the_deadline(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET REMINDER 6")
    deadline = _game(started).deadline
    assert deadline is not None
    started.clock.now = deadline - timedelta(hours=5)
    assert tick(started.judge).reminded == ["alpha"]
    assert "Still without orders" in started.outbox(to=player("RUSSIA"), kind="reminder")[0].body_text
    assert tick(started.judge).reminded == []


def test_outage_guard_pauses_and_mails_the_gm(started: Harness) -> None:
    started.judge.settings.outage_minutes = 60
    tick(started.judge)
    started.clock.advance(hours=72)  # the server was down past the deadline
    report = tick(started.judge)
    assert report.paused == ["alpha"] and report.processed == []
    game = _game(started)
    assert game.status == "paused" and game.paused_reason == "outage"
    assert started.outbox(to="gm@example.com", kind="outage")
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nRESUME")
    assert _game(started).status == "active"
    with started.judge.sessions.begin() as db:
        assert db.get(JudgeState, "last_tick") is not None


def test_nmr_wait_policy_waits_for_a_replacement(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET NMR wait\nSET GRACE 0\nSET TAKEOVER open")
    hold_all(started)
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        queries.clear_orders(db, game.id, "S1901M", "ITALY")
    started.clock.advance(hours=49)
    assert tick(started.judge).paused == ["alpha"]
    started.send("new@example.com", "TAKEOVER italy@alpha newpw")
    assert "You now play Italy" in started.last_reply("new@example.com")
    assert _game(started).status == "active"


def test_phase_guard_and_preview(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nPREVIEW\nPROCESS F1901M")
    reply = started.last_reply("gm@example.com")
    assert "the phase is S1901M, not F1901M" in reply
    assert started.outbox(to="gm@example.com", kind="preview")
    assert _game(started).phase == "S1901M"
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nPROCESS S1901M")
    assert _game(started).phase == "F1901M"


def test_rollback_and_rollforward(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur")
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nPROCESS")
    assert _game(started).phase == "F1901M"
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nROLLBACK S1901M RESTORE")
    assert "Rolled back to S1901M" in started.last_reply("gm@example.com")
    assert _game(started).phase == "S1901M"
    started.send(player("FRANCE"), signon("FRANCE") + "STATUS")
    assert "A PAR - BUR" in started.last_reply(player("FRANCE"))
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nROLLFORWARD")
    assert _game(started).phase == "F1901M"
    with started.judge.sessions.begin() as db:
        phases = db.scalars(select(Phase).order_by(Phase.seq)).all()
        assert [(p.code, p.status) for p in phases] == [("S1901M", "processed"), ("F1901M", "open")]


def test_pause_resume_terminate(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nPAUSE")
    assert _game(started).status == "paused"
    started.clock.advance(days=10)
    assert tick(started.judge).processed == []
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nRESUME\nSET DEADLINE +12h")
    game = _game(started)
    assert game.status == "active" and game.deadline == started.clock.now.replace(microsecond=0) + timedelta(
        hours=12) or game.deadline is not None
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET DEADLINE +400h")
    assert "at most 14 days" in started.last_reply("gm@example.com")
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nTERMINATE")
    assert _game(started).status == "terminated"


def test_become_eject_replace(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nBECOME France\nA Par-Gas")
    assert "A PAR - GAS" in started.last_reply("gm@example.com")
    assert started.outbox(to=player("FRANCE"), kind="copy")
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nEJECT Germany\nREPLACE Germany hans@example.com")
    assert "Waiting for hans@example.com to confirm" in started.last_reply("gm@example.com")
    assert "you now play Germany" in started.last_reply("hans@example.com")  # it confirmed (the harness)
    assert started.outbox(to="hans@example.com", kind="start")


def test_non_master_cannot_process(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "PROCESS")
    assert "only the game master" in started.last_reply(player("FRANCE"))
    started.send("gm@example.com", "SIGNON master@alpha wrong\nPROCESS")
    assert "wrong master password" in started.last_reply("gm@example.com")
    assert _game(started).phase == "S1901M"


def test_draw_vote_ends_the_game(started: Harness) -> None:
    for power in POWERS:
        started.send(player(power), signon(power) + "SET DRAW")
    assert _game(started).status == "finished"
    assert "declared a draw between" in started.outbox(kind="end")[-1].body_text


def test_absence_moves_the_deadline(started: Harness) -> None:
    deadline = _game(started).deadline
    assert deadline is not None
    start = (deadline - timedelta(days=1)).strftime("%Y-%m-%d")
    end = (deadline + timedelta(days=2)).strftime("%Y-%m-%d")
    started.send(player("FRANCE"), signon("FRANCE") + f"SET ABSENCE {start} TO {end}")
    assert "The deadline moved" in started.last_reply(player("FRANCE"))
    new = _game(started).deadline
    assert new is not None and new > deadline


def test_victory_ends_the_game(started: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from app.services.ruleset import engine as game_engine

    adjudicate = game_engine.adjudicate
    monkeypatch.setattr(game_engine, "adjudicate",
                        lambda *args: replace(adjudicate(*args), winner="FRANCE"))
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nPROCESS")
    game = _game(started)
    assert game.status == "finished" and game.deadline is None
    results = started.outbox(to=player("ENGLAND"), kind="results")[-1].body_text
    assert "The game is over.  Thank you for playing." in results
    assert "(* VICTORY!! *)" in results
    assert "won by France" in started.outbox(to=player("ENGLAND"), kind="end")[-1].body_text
    assert tick(started.judge).processed == []
