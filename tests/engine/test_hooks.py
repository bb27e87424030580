"""Issue 20.7: an optional rule module is a hook object the variant carries, chosen when the
variant is loaded from the names its data gives (`hooks = [...]`); the adjudicator calls the
variant's hooks and never asks a module whether it is on, so the same map plays with or
without a module according to the hooks it carries, whatever its name."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.engine.adjudicate import adjudicate
from app.engine.api import check_orders
from app.engine.modules import PLAIN, ArmyFleet, FastFerry, NoDisbandRetreat, ProtectedCentres, rule_hooks
from app.engine.orders import Board, Land, Unit
from app.engine.state import GameState
from app.engine.variant import Variant
from app.variants import load_variant


def _position(variant: Variant, phase: str, units: dict[str, list[str]]) -> GameState:
    placed = {}
    for power, texts in units.items():
        for text in texts:
            kind, location = text.split()
            placed[location.split("/")[0]] = (power, Unit("AF" if kind == "A/F" else kind, location))
    return GameState(phase=variant.phase(phase), units=placed, centres={})


def _errors(variant: Variant, state: GameState, power: str, lines: list[str]) -> list[str | None]:
    return [check.error for check in check_orders(variant, state, power, lines)]


def test_the_loader_makes_one_module_per_declared_name_in_order() -> None:
    hooks = load_variant("smallworld8").hooks
    assert [type(m) for m in hooks.modules] == [FastFerry, ArmyFleet, NoDisbandRetreat, ProtectedCentres]
    assert hooks.convoy_max_fleets == 1 and not hooks.may_disband_with_retreat
    assert hooks.order_kinds == frozenset({Board, Land})
    army_fleet = hooks.modules[1]
    assert isinstance(army_fleet, ArmyFleet) and army_fleet.fast_ferry  # Davis rule 2 needs both
    alone = rule_hooks(["army_fleet"]).modules[0]
    assert isinstance(alone, ArmyFleet) and not alone.fast_ferry


@pytest.mark.parametrize("name", ["standard", "zeus5"])
def test_a_variant_that_names_no_module_carries_the_plain_hooks(name: str) -> None:
    hooks = load_variant(name).hooks
    assert hooks is PLAIN and hooks.modules == () and hooks.names == ()
    assert hooks.convoy_max_fleets is None and hooks.may_disband_with_retreat and not hooks.order_kinds


def test_the_standard_map_with_the_army_fleet_hooks_boards_and_lands() -> None:
    plain = load_variant("standard")
    state = _position(plain, "S1901M", {"ENGLAND": ["A YOR", "F NTH"]})
    lines = ["A YOR boards F NTH", "A/F NTH - NWG"]
    assert "no Army/Fleet rules" in (_errors(plain, state, "ENGLAND", lines)[0] or "")
    with_module = replace(plain, hooks=rule_hooks(["army_fleet"]))
    assert _errors(with_module, state, "ENGLAND", lines) == [None, None]
    result = adjudicate(with_module, state, {"ENGLAND": lines})
    assert result.state.units["NWG"] == ("ENGLAND", Unit("AF", "NWG")) and "YOR" not in result.state.units


def test_small_world_without_its_hooks_is_plain_diplomacy_on_its_map() -> None:
    small_world = replace(load_variant("smallworld8"), hooks=rule_hooks([]))
    state = _position(small_world, "S02M", {"WESTERN_EUROPE": ["A SPA", "F MAO", "F WMS", "F EMS"]})
    [board] = _errors(small_world, state, "WESTERN_EUROPE", ["A SPA boards F MAO"])
    assert board is not None and "no Army/Fleet rules" in board
    # no Fast Ferry either: a convoy may cross two seas
    lines = ["A SPA - EGY", "F WMS C A SPA - EGY", "F EMS C A SPA - EGY"]
    assert _errors(small_world, state, "WESTERN_EUROPE", lines) == [None, None, None]
    assert _errors(load_variant("smallworld8"), state, "WESTERN_EUROPE", lines)[0] is not None


@pytest.mark.parametrize(("names", "after"), [
    (["fast_ferry", "army_fleet"], ("WESTERN_EUROPE", Unit("AF", "NTH"))),  # its own ferry keeps it aboard
    (["army_fleet"], ("WESTERN_EUROPE", Unit("F", "NTH"))),  # an ordinary convoy: the army goes home
])
def test_a_failed_ferry_landing_keeps_the_army_aboard_only_with_both_modules(
    names: list[str], after: tuple[str, Unit]
) -> None:
    variant = replace(load_variant("smallworld8"), hooks=rule_hooks(names))
    state = _position(variant, "S02M", {"WESTERN_EUROPE": ["A ENG", "F NTH"], "RUSSIA": ["A SCA"]})
    result = adjudicate(variant, state, {"WESTERN_EUROPE": ["F NTH C A ENG - SCA", "A ENG - SCA"],
                                         "RUSSIA": ["A SCA H"]})
    assert result.state.units["NTH"] == after
    assert ("ENG" in result.state.units) == (after[1].type == "F")


def test_a_dislodged_unit_may_disband_unless_the_variant_carries_no_disband_retreat() -> None:
    base = load_variant("standard")
    state = _position(base, "S1901M", {"FRANCE": ["A BUR", "A MAR"], "GERMANY": ["A MUN", "A RUH"]})
    moved = adjudicate(base, state, {"FRANCE": ["A BUR H"], "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    retreat = moved.state.evolve(phase=base.phase("S1901R"))
    assert retreat.dislodged["BUR"].retreats  # it could retreat
    assert _errors(base, retreat, "FRANCE", ["A BUR disband"]) == [None]
    strict = replace(base, hooks=rule_hooks(["no_disband_retreat"]))
    [refused] = _errors(strict, retreat, "FRANCE", ["A BUR disband"])
    assert refused is not None and "must retreat while it can" in refused
