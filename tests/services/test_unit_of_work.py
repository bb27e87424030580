"""The unit of work (app/services/kernel/uow.py): one transaction, committed once by its owner,
with the held outbox, the phase cache and the domain events; use cases never commit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from app.db import queries
from app.db.models import Game, OutboundMessage
from app.services.errors import DomainError
from app.services.games.admin import SeatSpec, create_game_direct
from app.services.kernel.actor import Actor, Role
from app.services.kernel.uow import DomainEvent, OrdersChanged, UnitOfWork
from app.services.mailout.outbox import enqueue, queue_held
from app.services.orders.submit import clear_orders, submit_orders
from app.services.seats.player import set_wait
from tests.support.fake_uow import FakeUnitOfWork, fake_judge

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def _started(judge, *, early: bool = True) -> int:  # type: ignore[no-untyped-def]
    with FakeUnitOfWork(judge) as unit:
        seats = [SeatSpec(f"{p.lower()}@example.com", f"pw{p.lower()}", p) for p in POWERS]
        set_up = create_game_direct(judge, unit, "alpha", "gm@example.com", "masterpw", seats=seats,
                                    settings={"reminder_hours": 0, "early": early})
        unit.commit()
        assert unit.commits == 1
        return set_up.created.game_id


def _player(game_id: int, power: str) -> Actor:
    return Actor(f"{power.lower()}@example.com", Role.PLAYER, game_id, power)


def _seated(unit: UnitOfWork, game_id: int, power: str) -> Actor:
    seat = queries.seat_for_power(unit.session, game_id, power)
    assert seat is not None
    return Actor(seat.email, Role.PLAYER, game_id, power, seat.id)


def _hold_all(judge, unit: UnitOfWork, game_id: int, powers: list[str]) -> None:  # type: ignore[no-untyped-def]
    game = unit.session.get_one(Game, game_id)
    units = unit.open_phase_of(game).state_before["units"]  # type: ignore[union-attr]
    for power in powers:
        submit_orders(judge, unit, _player(game_id, power), game, [f"{u} H" for u in units[power]])


def test_a_use_case_records_its_event_and_never_commits() -> None:
    judge = fake_judge()
    game_id = _started(judge)
    with FakeUnitOfWork(judge, only={}) as unit:
        game = unit.session.get_one(Game, game_id)
        submit_orders(judge, unit, _player(game_id, "FRANCE"), game, ["A Par - Bur"])
        assert unit.events == [OrdersChanged(game_id)] and unit.commits == 0
    with FakeUnitOfWork(judge) as unit:  # left without a commit: nothing of it stayed
        game = unit.session.get_one(Game, game_id)
        phase = unit.open_phase_of(game)
        assert phase is not None and queries.orders_for(unit.session, game_id, phase.code) == []


def test_orders_changed_is_handled_at_commit_early_processing_whichever_door() -> None:
    judge = fake_judge()
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as unit:
        game = unit.session.get_one(Game, game_id)
        deadline = game.deadline
        _hold_all(judge, unit, game_id, POWERS)
        assert game.deadline == deadline  # recorded, not yet handled
        unit.commit()
        assert unit.handled == [OrdersChanged(game_id)]  # seven submissions, one event
        assert game.deadline is not None and deadline is not None and game.deadline < deadline
        assert game.deadline <= judge.now() + timedelta(minutes=30)


def test_early_processing_waits_for_everyone_and_for_wait() -> None:
    judge = fake_judge()
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as unit:
        game = unit.session.get_one(Game, game_id)
        deadline = game.deadline
        _hold_all(judge, unit, game_id, POWERS[:-1])
        unit.commit()
        assert game.deadline == deadline  # Turkey has not ordered
    with FakeUnitOfWork(judge) as unit:
        set_wait(judge, unit, _seated(unit, game_id, "ENGLAND"), True)
        _hold_all(judge, unit, game_id, ["TURKEY"])
        unit.commit()
        assert unit.session.get_one(Game, game_id).deadline == deadline  # England waits
    with FakeUnitOfWork(judge) as unit:
        set_wait(judge, unit, _seated(unit, game_id, "ENGLAND"), False)
        unit.commit()
        assert unit.handled == [OrdersChanged(game_id)]
        assert unit.session.get_one(Game, game_id).deadline < deadline  # type: ignore[operator]


def test_clear_is_a_use_case_that_puts_the_deadline_back() -> None:
    judge = fake_judge()
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as unit:
        game = unit.session.get_one(Game, game_id)
        deadline = game.deadline
        _hold_all(judge, unit, game_id, POWERS)
        unit.commit()
        assert game.deadline < deadline  # type: ignore[operator]
    with FakeUnitOfWork(judge) as unit:
        game = unit.session.get_one(Game, game_id)
        assert clear_orders(judge, unit, _player(game_id, "ITALY"), game) == "S1901M"
        unit.commit()
        assert game.deadline == deadline
        assert queries.orders_for(unit.session, game_id, "S1901M", "ITALY") == []
    with FakeUnitOfWork(judge) as unit, pytest.raises(DomainError):
        game = unit.session.get_one(Game, game_id)
        clear_orders(judge, unit, Actor("x@example.com", Role.PLAYER, game_id, None), game)


def test_equal_events_are_handled_once_and_a_handlers_events_too() -> None:
    judge = fake_judge()

    class Second(DomainEvent):
        pass

    seen: list[str] = []

    def first(unit: UnitOfWork, event: OrdersChanged) -> None:
        seen.append(f"first {event.game_id}")
        unit.record(Second())

    with FakeUnitOfWork(judge, only={OrdersChanged: (first,), Second: (lambda u, e: seen.append("second"),)}) as unit:
        for game_id in (1, 1, 2, 1):
            unit.record(OrdersChanged(game_id))
        unit.commit()
    assert seen == ["first 1", "first 2", "second"]  # in the order recorded


def test_held_mail_is_queued_after_the_answer_and_lost_with_a_rollback() -> None:
    judge = fake_judge()
    with FakeUnitOfWork(judge) as unit:
        unit.hold()
        enqueue(unit, judge, to="a@example.com", subject="caused", text="x")
        caused = unit.take_held()
        enqueue(unit, judge, to="a@example.com", subject="answer", text="x")
        queue_held(unit, caused)
        unit.commit()
    with FakeUnitOfWork(judge) as unit:
        subjects = unit.session.scalars(select(OutboundMessage.subject).order_by(OutboundMessage.id)).all()
        assert subjects == ["answer", "caused"]
        enqueue(unit, judge, to="a@example.com", subject="lost", text="x")  # never committed
    with FakeUnitOfWork(judge) as unit:
        assert unit.session.scalar(select(func.count()).select_from(OutboundMessage)) == 2


def test_an_event_outside_an_open_unit_is_an_error_not_a_silent_drop() -> None:
    """A unit that is not open records nothing: it raises.  A use case called on a bare session
    (no unit of work) used to store the orders and drop their ``OrdersChanged`` at DEBUG, so early
    processing silently did not happen; it now cannot run at all."""
    judge = fake_judge()
    game_id = _started(judge)
    with pytest.raises(RuntimeError, match="outside an open unit of work"):
        UnitOfWork(judge.sessions).record(OrdersChanged(game_id))
    with judge.sessions() as session:
        game = session.get_one(Game, game_id)
        with pytest.raises((AttributeError, TypeError)):
            clear_orders(judge, session, _player(game_id, "ITALY"), game)  # type: ignore[arg-type]
