"""The DoD III use cases without the mail door: an actor and typed arguments in, a value out,
or a refusal with a stable reason code."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from sqlalchemy.orm import Session

from app.db import queries
from app.services.dod3 import gm_entries, options, player_commands, report, setup
from app.services.dod3.gm_entries import NumberEntry, PowerField
from app.services.errors import DomainError
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from tests.dod3.mailgame import GAME, GM, PLAYERS, Seeds, create, gm
from tests.server.conftest import Harness
from tests.support.units import unit


def _actor(db: Session, who: str, power: str | None = None) -> Actor:
    game = queries.game_by_name(db, GAME)
    assert game is not None
    if who == "gm":
        return Actor(GM, Role.GM, game.id)
    return Actor(PLAYERS[who][0], Role.PLAYER, game.id, power)


Call = Callable[[Judge, UnitOfWork, Actor], Any]

REFUSALS: list[tuple[str, str | None, Call, str]] = [  # (actor, power, call, code) in Jan/Feb 1936, step C1
    ("Soviet", "RU", lambda j, uow, a: options.play_option(j, uow, a, "GE", None), "not_your_power"),
    ("Soviet", "RU", lambda j, uow, a: options.play_option(j, uow, a, "Ruritania", None), "unknown_power"),
    ("Axis", "IT", lambda j, uow, a: options.play_option(j, uow, a, "IT", None), "not_your_turn"),
    ("Axis", "GE", lambda j, uow, a: options.play_option(j, uow, a, "GE", "GE 7"), "no_cost"),
    ("Axis", "GE", lambda j, uow, a: options.play_option(j, uow, a, "GE", "IT 1"), "bad_option"),
    ("Axis", "GE", lambda j, uow, a: player_commands.place_bid(j, uow, a, "GE", 1), "wrong_step"),
    ("Axis", "GE", lambda j, uow, a: player_commands.move_down(j, uow, a, "GE", None), "wrong_step"),
    ("Axis", None, lambda j, uow, a: options.play_option(j, uow, a, "GE", None), "not_signed_on"),
    ("Axis", "GE", lambda j, uow, a: gm_entries.record_text(j, uow, a, "x"), "not_gm"),
    ("Axis", "GE", lambda j, uow, a: report.show_tally(j, uow, a), "not_gm"),
    ("gm", None, lambda j, uow, a: gm_entries.record_text(j, uow, a, " "), "usage"),
    ("gm", None, lambda j, uow, a: gm_entries.record_weather_result(j, uow, a, "Fine"), "wrong_step"),
    ("gm", None, lambda j, uow, a: gm_entries.record_effect(j, uow, a, None, "x"), "no_option"),
    ("gm", None, lambda j, uow, a: gm_entries.set_war(j, uow, a, "GE", ["GE"], at_war=True), "bad_war"),
    ("gm", None, lambda j, uow, a: options.settle_pending(j, uow, a, "GE", "GE 1", True), "not_pending"),
    ("gm", None, lambda j, uow, a: setup.start_game(j, uow, a), "not_forming"),
    ("gm", None, lambda j, uow, a: setup.set_setup(j, uow, a, setup.SetupItem.HOURS, "lunch", [Fraction(2)]),
     "unknown_step"),
    ("gm", None, lambda j, uow, a: setup.seat_player(j, uow, a, "Nobody", "x@example.com", "pw"), "unknown_player"),
    ("gm", None, lambda j, uow, a: report.show_status(j, uow, Actor(GM, Role.OBSERVER, a.game_id)), "not_player"),
]


@pytest.mark.parametrize(("who", "power", "call", "code"), REFUSALS)
def test_refusals_have_reason_codes(harness: Harness, seeds: Seeds, who: str, power: str | None, call: Call,
                                    code: str) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    with unit(harness.judge) as uow:
        with pytest.raises(DomainError) as refused:
            call(harness.judge, uow, _actor(uow.session, who, power))
        assert refused.value.code == code, refused.value.message


def test_values_come_back_typed(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    with unit(harness.judge) as uow:
        db = uow.session
        gm_actor = _actor(db, "gm")
        changed = gm_entries.change_number(harness.judge, uow, gm_actor, "GE", PowerField.MONEY,
                                           NumberEntry(Fraction(2), relative=True))
        assert (changed.old, changed.new, changed.setup) == (10, 12, True)
        assert setup.start_game(harness.judge, uow, gm_actor).opened.startswith("JF1936C1")
    with unit(harness.judge) as uow:
        db = uow.session
        done = options.play_option(harness.judge, uow, _actor(db, "Axis", "IT"), "GE", "GE 1")
        assert done.power == "GE" and done.play is not None and done.play.option == "GE 1"
        assert done.roll is not None and done.roll_counter == 1  # the weather roll was #0
        status = report.show_status(harness.judge, uow, _actor(db, "Axis", "JA"))
        assert status.step is not None and status.report.powers[0].name
