"""The use cases on the fake unit of work (Cosmic Python's ``tests/unit/test_handlers.py``): typed
arguments in, a value, rows, events and queued mails out, in milliseconds, below the mail door.
The mail harness (``tests/server``) keeps the command grammar and the replies; the rules are here."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from app.db import queries
from app.db.models import Game, OutboundMessage, Player
from app.db.statuses import GameStatus, SeatRole
from app.services.errors import DomainError
from app.services.games import gm, lobby, press
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.uow import OrdersChanged
from app.services.orders.submit import clear_orders, submit_orders
from app.services.seats import player, votes
from app.services.seats.takeover import TakeoverAsked
from app.services.turns import control
from tests.support.fake_uow import FakeUnitOfWork, fake_judge

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
GM = "gm@example.com"
NOW = datetime(2030, 3, 1, 12, tzinfo=UTC)


@pytest.fixture
def judge() -> Judge:
    judge = fake_judge()
    judge.clock = lambda: NOW
    return judge


def _address(power: str) -> str:
    return f"{power.lower()}@example.com"


def _forming(judge: Judge, **settings: object) -> int:
    with FakeUnitOfWork(judge) as uow:
        created = lobby.create_game(judge, uow, Actor(GM), "alpha", "masterpw",
                                    settings={"reminder_hours": 0, **settings})
        uow.commit()
    return created.game_id


def _started(judge: Judge, **settings: object) -> int:
    game_id = _forming(judge, **settings)
    with FakeUnitOfWork(judge) as uow:
        for power in POWERS:
            lobby.join_game(judge, uow, Actor(_address(power)), "alpha", f"pw{power.lower()}", power=power)
        uow.commit()
    return game_id


def _player(uow: FakeUnitOfWork, game_id: int, power: str) -> Actor:
    seat = queries.seat_for_power(uow.session, game_id, power)
    assert seat is not None
    return Actor(seat.email, Role.PLAYER, game_id, power, seat.id)


def _gm(game_id: int) -> Actor:
    return Actor(GM, Role.GM, game_id)


def _mails(uow: FakeUnitOfWork, **where: object) -> list[OutboundMessage]:
    query = select(OutboundMessage).filter_by(**where).order_by(OutboundMessage.id)
    return list(uow.session.scalars(query))


# The fake's database is the real one's: foreign keys are checked.

def test_the_fake_unit_checks_foreign_keys(judge: Judge) -> None:
    with FakeUnitOfWork(judge) as uow, pytest.raises(IntegrityError):
        uow.session.add(Player(game_id=999, email="x@example.com", password_hash="x", role=SeatRole.PLAYER,
                               status="active", reply_token="t" * 20))
        uow.session.flush()


# Joining and observing.

def test_the_seventh_player_starts_the_game(judge: Judge) -> None:
    game_id = _forming(judge)
    with FakeUnitOfWork(judge) as uow:
        joined = [lobby.join_game(judge, uow, Actor(_address(p)), "alpha", "pw", power=p) for p in POWERS]
        assert [j.players for j in joined] == list(range(1, 8)) and joined[-1].seats == 7
        assert all(j.started is None for j in joined[:-1])
        started = joined[-1].started
        assert started is not None and started.phase == "S1901M"
        game = uow.session.get_one(Game, game_id)
        assert game.status == GameStatus.ACTIVE and {s.power for s in game.players} == set(POWERS)
        assert uow.commits == 0  # the caller commits


def test_joining_is_refused_with_codes(judge: Judge) -> None:
    _forming(judge)
    with FakeUnitOfWork(judge) as uow:
        lobby.join_game(judge, uow, Actor("a@example.com"), "alpha", "pw", power="FRANCE")
        for actor, name, power, code in [
            (Actor("a@example.com"), "alpha", None, "already_joined"),
            (Actor("b@example.com"), "alpha", "atlantis", "unknown_power"),
            (Actor("b@example.com"), "nope", None, "no_game"),
        ]:
            with pytest.raises(DomainError) as refused:
                lobby.join_game(judge, uow, actor, name, "pw", power=power)
            assert refused.value.code == code


def test_an_observer_takes_no_power_and_may_watch_a_game_in_play(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow:
        with pytest.raises(DomainError) as refused:
            lobby.join_game(judge, uow, Actor("late@example.com"), "alpha", "pw")
        assert refused.value.code == "not_forming" and refused.value.values["takeover"] is True
        joined = lobby.join_game(judge, uow, Actor("watcher@example.com"), "alpha", "pw", observe=True)
        assert joined.observer
        seat = uow.session.get_one(Player, joined.seat_id)
        assert (seat.role, seat.power, seat.game_id) == (SeatRole.OBSERVER, None, game_id)


# Orders.

def test_orders_are_stored_with_a_receipt_and_an_event(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge, only={}) as uow:
        game = uow.session.get_one(Game, game_id)
        receipt = submit_orders(judge, uow, _player(uow, game_id, "FRANCE"), game,
                                ["A Par - Bur", "F Bre - Mao", "A Mar H"])
        assert receipt.stored and receipt.phase == "S1901M" and all(line.ok for line in receipt.lines)
        rows = queries.orders_for(uow.session, game_id, "S1901M", "FRANCE")
        assert sorted(str(r.order) for r in rows) == ["A MAR H", "A PAR - BUR", "F BRE - MAO"]
        assert uow.events == [OrdersChanged(game_id)]


def test_an_illegal_order_is_reported_and_a_whole_set_with_one_stores_nothing(judge: Judge) -> None:
    game_id = _started(judge, orders="whole_set")
    with FakeUnitOfWork(judge, only={}) as uow:
        game = uow.session.get_one(Game, game_id)
        receipt = submit_orders(judge, uow, _player(uow, game_id, "FRANCE"), game, ["A Par - Bur", "A Par - Mos"])
        assert not receipt.stored and [line.ok for line in receipt.lines] == [True, False]
        assert queries.orders_for(uow.session, game_id, "S1901M", "FRANCE") == []
        assert uow.events == []  # nothing changed: no early processing to consider


def test_only_a_power_gives_its_orders(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow:
        game = uow.session.get_one(Game, game_id)
        with pytest.raises(DomainError):
            clear_orders(judge, uow, Actor("x@example.com", Role.PLAYER, game_id, None), game)


# Processing a turn.

def test_processing_moves_the_units_opens_the_next_phase_and_mails_everyone(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge, only={}) as uow:
        game = uow.session.get_one(Game, game_id)
        submit_orders(judge, uow, _player(uow, game_id, "FRANCE"), game, ["A Par - Bur"])
        submit_orders(judge, uow, _player(uow, game_id, "GERMANY"), game, ["A Mun - Bur"])
        before = len(_mails(uow))
        outcome = control.process_now(judge, uow, _gm(game_id), game, "S1901M")
        assert (outcome.phase, outcome.next_phase, outcome.winner) == ("S1901M", "F1901M", None)
        assert game.phase == "F1901M"
        phase = uow.open_phase_of(game)
        assert phase is not None and phase.code == "F1901M"
        units = phase.state_before["units"]
        assert "A PAR" in units["FRANCE"] and "A MUN" in units["GERMANY"]  # bounced in Burgundy
        results = [m for m in _mails(uow)[before:] if m.kind == "results"]
        assert {m.recipients[0] for m in results} >= {_address(p) for p in POWERS}


def test_processing_is_the_gms_and_refuses_a_stale_phase(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow:
        game = uow.session.get_one(Game, game_id)
        with pytest.raises(DomainError) as refused:
            control.process_now(judge, uow, _player(uow, game_id, "FRANCE"), game)
        assert refused.value.code == "not_gm"
        with pytest.raises(DomainError) as refused:
            control.process_now(judge, uow, _gm(game_id), game, "F1905M")
        assert refused.value.code == "stale_phase"


# The deadline.

def test_the_gm_moves_the_deadline_and_the_players_are_told(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow:
        deadline = gm.set_deadline(judge, uow, _gm(game_id), "+48h")
        assert deadline == NOW + timedelta(hours=48)
        game = uow.session.get_one(Game, game_id)
        assert game.deadline == deadline and game.grace_until is None
        told = [m for m in _mails(uow, kind="broadcast") if m.subject == "Diplomacy deadline changed alpha"]
        assert sorted(m.recipients[0] for m in told) == sorted([GM, *(_address(p) for p in POWERS)])


@pytest.mark.parametrize(("when", "code"), [("yesterday-ish", "bad_deadline"), ("2030-02-01 12:00", "deadline_in_past"),
                                            ("+2000h", "deadline_too_far")])
def test_a_bad_deadline_is_refused_with_its_code(judge: Judge, when: str, code: str) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow, pytest.raises(DomainError) as refused:
        gm.set_deadline(judge, uow, _gm(game_id), when)
    assert refused.value.code == code


def test_only_the_gm_sets_the_deadline(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow, pytest.raises(DomainError) as refused:
        gm.set_deadline(judge, uow, _player(uow, game_id, "FRANCE"), "+48h")
    assert refused.value.code == "not_gm"


# Draw votes.

def test_a_draw_passes_when_every_survivor_votes_for_it(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow:
        for power in POWERS[:-1]:
            vote = votes.set_draw(judge, uow, _player(uow, game_id, power), "")
            assert vote.dias and not vote.game_over
        last = votes.set_draw(judge, uow, _player(uow, game_id, "TURKEY"), "")
        assert last.game_over and len(last.powers) == 7
        assert uow.session.get_one(Game, game_id).status == GameStatus.FINISHED


def test_a_different_draw_or_a_withdrawn_vote_does_not_pass(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow:
        for power in POWERS[:-1]:
            votes.set_draw(judge, uow, _player(uow, game_id, power), "")
        assert not votes.set_draw(judge, uow, _player(uow, game_id, "TURKEY"), "france, england").game_over
        votes.set_draw(judge, uow, _player(uow, game_id, "FRANCE"), None)  # withdrawn
        assert uow.session.get_one(Game, game_id).status == GameStatus.ACTIVE
        with pytest.raises(DomainError) as refused:
            votes.set_draw(judge, uow, _player(uow, game_id, "FRANCE"), "atlantis")
        assert refused.value.code == "unknown_powers"


def test_the_gm_has_no_draw_vote(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow, pytest.raises(DomainError):
        votes.set_draw(judge, uow, _gm(game_id), "")


def test_a_use_case_never_commits(judge: Judge) -> None:
    _started(judge)
    with FakeUnitOfWork(judge) as uow:
        assert uow.session.scalar(select(func.count()).select_from(Player)) == 7
        assert uow.commits == 0


# Press, resigning and taking over, pausing.

def test_private_press_goes_to_the_powers_named_and_restarts_the_quiet_period(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge, only={}) as uow:
        france = _player(uow, game_id, "FRANCE")
        plan = press.plan_press(judge, uow, france, press.PressRequest(broadcast=False, powers="england, germany"))
        sent = press.send_press(judge, uow, france, plan, "Shall we?")
        assert not sent.postal and sorted(sent.to_names) == ["England", "Germany"]
        told = {m.recipients[0] for m in _mails(uow) if "Shall we?" in m.body_text}
        assert told >= {_address("ENGLAND"), _address("GERMANY")} and _address("ITALY") not in told
        assert uow.events == [OrdersChanged(game_id)]


def test_press_to_nobody_is_refused(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow, pytest.raises(DomainError):
        press.plan_press(judge, uow, _player(uow, game_id, "FRANCE"), press.PressRequest(broadcast=False))


def test_a_resigned_power_is_open_for_takeover_and_a_played_one_is_not(judge: Judge) -> None:
    game_id = _started(judge, takeover="open")
    with FakeUnitOfWork(judge) as uow:
        resigned = player.resign(judge, uow, _player(uow, game_id, "ITALY"))
        assert not resigned.left and resigned.power_name == "Italy"
        with pytest.raises(DomainError) as refused:
            lobby.takeover(judge, uow, Actor("new@example.com"), "alpha", "france", "pw")
        assert refused.value.code == "not_vacant"
        took = lobby.takeover(judge, uow, Actor("new@example.com"), "alpha", "italy", "pwnew")
        assert not isinstance(took, TakeoverAsked)
        seat = queries.seat_for_power(uow.session, game_id, "ITALY")
        assert seat is not None and seat.email == "new@example.com"


def test_a_takeover_waits_for_the_gm_unless_takeovers_are_open(judge: Judge) -> None:
    game_id = _started(judge)  # the default: the GM approves
    with FakeUnitOfWork(judge) as uow:
        player.resign(judge, uow, _player(uow, game_id, "ITALY"))
        asked = lobby.takeover(judge, uow, Actor("new@example.com"), "alpha", "italy", "pwnew")
        assert isinstance(asked, TakeoverAsked)
        seat = queries.seat_for_power(uow.session, game_id, "ITALY")
        assert seat is not None and seat.email == _address("ITALY")


def test_pause_and_resume(judge: Judge) -> None:
    game_id = _started(judge)
    with FakeUnitOfWork(judge) as uow:
        gm.pause(judge, uow, _gm(game_id))
        assert uow.session.get_one(Game, game_id).status == GameStatus.PAUSED
        assert gm.resume(judge, uow, _gm(game_id)) is not None
        assert uow.session.get_one(Game, game_id).status == GameStatus.ACTIVE
        with pytest.raises(DomainError) as refused:
            gm.resume(judge, uow, _gm(game_id))
        assert refused.value.code == "not_paused"
