"""The GM's turn use cases return values: preview, process, roll back and forward; only the GM may."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.db import queries
from app.db.models import AuditEntry, Phase
from app.services.errors import DomainError
from app.services.kernel.actor import Actor, Role
from app.services.turns import control as turn_control
from tests.server.conftest import Harness, player, signon
from tests.services.test_override import GM, game_db, gm_actor, orders


def test_preview_returns_the_would_be_results_and_stores_nothing(started: Harness) -> None:
    orders(started, "FRANCE", "A PAR - BUR")
    with game_db(started) as (uow, game):
        db = uow.session
        preview = turn_control.preview_turn(started.judge, uow, gm_actor(game), game)
        assert queries.open_phase(db, game.id) is not None and game.phase == "S1901M"
        assert db.scalars(select(Phase).where(Phase.status == "processed")).all() == []
    assert preview.phase == "S1901M" and preview.view.preview
    france = next(b for b in preview.view.blocks if b.power == "FRANCE")
    assert "France: Army Paris -> Burgundy." in france.lines
    assert preview.view.next_phase is not None and preview.view.next_phase.code == "F1901M"
    assert started.outbox(kind="preview") == []  # the mail command sends it, not the use case


def test_process_rollback_with_orders_and_rollforward(started: Harness) -> None:
    orders(started, "FRANCE", "Army Paris - Burgundy")
    with game_db(started) as (uow, game):
        outcome = turn_control.process_now(started.judge, uow, gm_actor(game), game, "S1901M")
        assert (outcome.phase, outcome.next_phase) == ("S1901M", "F1901M")
    with game_db(started) as (uow, game):
        db = uow.session
        back = turn_control.rollback(started.judge, uow, gm_actor(game), game, "s1901m", restore=True)
        assert (back.phase, back.restore) == ("S1901M", True) and back.deadline == game.deadline
        rows = queries.orders_for(db, game.id, "S1901M", "FRANCE")
        assert [(r.unit, r.order, r.checked) for r in rows] == [("A PAR", "A PAR - BUR", True)]
    with game_db(started) as (uow, game):
        db = uow.session
        forward = turn_control.rollforward(started.judge, uow, gm_actor(game), game)
        assert forward.phase == "F1901M"
        actions = [e.action for e in db.scalars(select(AuditEntry).order_by(AuditEntry.id))]
        assert actions[-3:] == ["process", "rollback", "rollforward"]
    rolled = started.outbox(kind="broadcast")
    assert any("rolled game 'alpha' back to S1901M with its orders" in m.body_text for m in rolled)


@pytest.mark.parametrize(("processed", "call", "code"), [
    (True, lambda j, uow, a, g: turn_control.rollback(j, uow, a, g, "F1905M"), "no_such_phase"),
    (False, lambda j, uow, a, g: turn_control.rollback(j, uow, a, g), "nothing_to_roll_back"),
    (True, lambda j, uow, a, g: turn_control.rollforward(j, uow, a, g), "nothing_to_roll_forward"),
    (True, lambda j, uow, a, g: turn_control.process_now(j, uow, a, g, "S1901M"), "stale_phase"),
])
def test_refusals_carry_a_code(started: Harness, processed: bool, call: object, code: str) -> None:
    if processed:
        started.send(GM, "SIGNON master@alpha masterpw\nPROCESS")
    with game_db(started) as (uow, game), pytest.raises(DomainError) as refused:
        call(started.judge, uow, gm_actor(game), game)  # type: ignore[operator]
    assert refused.value.code == code


@pytest.mark.parametrize("use_case", ["preview_turn", "process_now", "rollback", "rollforward"])
def test_a_player_may_not_control_the_turn(started: Harness, use_case: str) -> None:
    with game_db(started) as (uow, game), pytest.raises(DomainError) as refused:
        getattr(turn_control, use_case)(started.judge, uow, Actor(player("FRANCE"), Role.PLAYER, game.id, "FRANCE"),
                                        game)
    assert refused.value.code == "not_gm"


def test_mail_commands_read_as_before(started: Harness) -> None:
    started.send(GM, "SIGNON master@alpha masterpw\nPREVIEW\nPROCESS\nROLLBACK\nROLLFORWARD")
    reply = started.last_reply(GM)
    for line in ("Preview results sent to the master only; nothing has changed.",
                 "Processed S1901M; results sent (8 mails). Next phase F1901M.",
                 "Rolled back to S1901M.", "Rolled forward to F1901M."):
        assert line in reply, reply
    assert "*** PREVIEW" in started.outbox(to=GM, kind="preview")[-1].body_text
    started.send(player("FRANCE"), signon("FRANCE") + "ROLLBACK")
    assert "only the game master may do that" in started.last_reply(player("FRANCE"))
