"""Submitting orders: read once by the engine; orders in advance keyed by the unit the map reads."""

from __future__ import annotations

import pytest

from app.db import queries
from app.services.errors import DomainError
from app.services.kernel.actor import Actor, Role
from app.services.orders.submit import power_status, submit_orders
from tests.server.conftest import Harness
from tests.services.test_override import game_db


def france(game_id: int) -> Actor:
    return Actor("france@example.com", Role.PLAYER, game_id, "FRANCE")


@pytest.mark.parametrize(("lines", "stored", "errors"), [
    (["A PAR - BUR"], [("A PAR", "A PAR - BUR")], []),
    (["Army Paris -> Burgundy", "F BRE - MAO"], [("A PAR", "A PAR - BUR"), ("F BRE", "F BRE - MAO")], []),
    (["A PAR - BUR", "A PAR H"], [("A PAR", "A PAR H")], []),  # the last order for a unit wins
    (["A PAR - MOS"], [], ["A PAR - MOS"]),
    (["XYZZY"], [], ["XYZZY"]),
])
def test_submit_orders(started: Harness, lines: list[str], stored: list[tuple[str, str]], errors: list[str]) -> None:
    with game_db(started) as (uow, game):
        db = uow.session
        receipt = submit_orders(started.judge, uow, france(game.id), game, lines)
        assert (receipt.phase, receipt.power, receipt.advance, receipt.stored) == ("S1901M", "FRANCE", False, True)
        assert [item.line for item in receipt.errors] == errors
        assert all(item.error for item in receipt.errors)
        rows = queries.orders_for(db, game.id, "S1901M", "FRANCE")
        assert [(r.unit, r.order) for r in rows] == stored
        status = power_status(started.judge, uow, france(game.id), game, "FRANCE")
        assert status is not None and status.needs_orders
        assert sorted(status.missing) == sorted({"A PAR", "A MAR", "F BRE"} - {unit for unit, _ in stored})


def test_orders_in_advance_are_keyed_by_the_unit_the_map_reads(started: Harness) -> None:
    with game_db(started) as (uow, game):
        db = uow.session
        receipt = submit_orders(started.judge, uow, france(game.id), game,
                                ["A PAR - PIC", "Army Paris - Burgundy", "nonsense words"], "F1901M")
        assert receipt.advance and receipt.phase == "F1901M"
        rows = queries.orders_for(db, game.id, "F1901M", "FRANCE")
        assert [(r.unit.split("#")[1] if r.unit.startswith("#") else r.unit, r.line, r.checked) for r in rows] == [
            ("A PAR", "Army Paris - Burgundy", False), ("NONSENSE WORDS", "nonsense words", False)]


def test_whole_set_orders_with_an_error_store_nothing(started: Harness) -> None:
    with game_db(started) as (uow, game):
        db = uow.session
        game.settings = {**game.settings, "orders": "whole_set"}
        receipt = submit_orders(started.judge, uow, france(game.id), game, ["A PAR - BUR", "A MAR - MOS"])
        assert not receipt.stored and [e.line for e in receipt.errors] == ["A MAR - MOS"]
        assert queries.orders_for(db, game.id, "S1901M", "FRANCE") == []


@pytest.mark.parametrize(("actor", "code"), [
    (Actor("x@example.com", Role.OBSERVER), "not_allowed"),
    (Actor("gm@example.com", Role.GM), "no_power"),
])
def test_who_may_give_orders(started: Harness, actor: Actor, code: str) -> None:
    with game_db(started) as (uow, game), pytest.raises(DomainError) as refused:
        submit_orders(started.judge, uow, Actor(actor.address, actor.role, game.id, actor.power), game, ["A PAR H"])
    assert refused.value.code == code


def test_every_engine_call_gets_the_games_rule_options(started: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.services.ruleset import engine as game_engine

    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET RULE removal_default least_impact")
    seen: list[dict[str, object]] = []
    real = game_engine.game_variant

    def spy(name: str, rules: dict[str, object] | None = None) -> game_engine.Variant:
        seen.append(dict(rules or {}))
        return real(name, rules)

    monkeypatch.setattr(game_engine, "game_variant", spy)
    started.send("france@example.com", "SIGNON Falpha pwfrance\nA PAR - BUR\nSTATUS")
    started.send("france@example.com", "SIGNON Falpha pwfrance\nPHASE F1901M\nA BUR - PIC")
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nPREVIEW\nPROCESS\nROLLBACK RESTORE\nPROCESS")
    assert len(seen) > 10
    assert all(rules == {"removal_default": "least_impact"} for rules in seen), seen
