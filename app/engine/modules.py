"""The registry of optional rule modules: each `Hook` name and the module it switches on.

`rule_hooks(names)` is called once, when a variant is loaded (`app/variants.py`): the names
its data gives become the `RuleHooks` object the variant carries, which the adjudicator
calls (variant.py). A new module is a `RuleModule` subclass registered in `MODULES`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from . import armyfleet, armyfleet_checks, armyfleet_orders
from .geo import province_of
from .hooks import Hook, check_hooks
from .orders import Board, Land, Order, Unit
from .outcomes import OrderEntry
from .resolve import MovementResolution
from .state import GameState
from .variant import RuleHooks, RuleModule, Variant


class ArmyFleet(RuleModule):
    """The Army/Fleet module (armyfleet.py): armies board fleets of their power and land
    from them. With the Fast Ferry (`fast_ferry`), an army its own ferry could not land
    goes aboard (Davis rule 2)."""

    def __init__(self, fast_ferry: bool = False) -> None:
        self.fast_ferry = fast_ferry

    def order_kinds(self) -> tuple[type, ...]:
        return (Board, Land)

    def prepare_movement(
        self, variant: Variant, state: GameState, chosen: dict[str, OrderEntry], entries: list[OrderEntry]
    ) -> tuple[GameState, dict[str, OrderEntry]]:
        state, chosen = armyfleet_orders.board(variant, state, chosen, entries)
        armyfleet_orders.join_landings(variant, state, chosen, entries)
        return state, chosen

    def split_orders(self, units: dict[str, tuple[str, Unit]], orders: dict[str, Order]) -> dict[str, str | None]:
        return armyfleet.split_landings(units, orders)

    def after_movement(
        self,
        variant: Variant,
        state: GameState,
        res: MovementResolution,
        units: dict[str, tuple[str, Unit]],
        removed: list[tuple[str, Unit]],
        starved: set[str] | None,
        aboard: dict[str, str] | None,
    ) -> dict[str, int]:
        return armyfleet.after_movement(variant, state, res, units, removed, starved, aboard, self.fast_ferry)

    def recheck_orders(self, variant: Variant, state: GameState, entries: list[OrderEntry]) -> None:
        armyfleet_checks.recheck_after_boarding(variant, state, entries)

    def convoy_hint(self, variant: Variant, fleet: str, army: str, target: str) -> str:
        game_map = variant.map
        if not (armyfleet.af_water(game_map, fleet) and game_map.fleet_reaches_province(fleet, province_of(army))):
            return ""
        # The Army/Fleet module carries an army further than a convoy (issue 9.9).
        return f"; to carry the army further, it boards the fleet: A {army} boards F {fleet} with A/F {fleet} - <sea> - {target}"


class FastFerry(RuleModule):
    """The Fast Ferry (Small World rule 9): a convoy crosses one sea, with one fleet."""

    def convoy_max_fleets(self) -> int | None:
        return 1


class NoDisbandRetreat(RuleModule):
    """A dislodged unit that can retreat must retreat (Small World rule 11.1)."""

    def may_disband_with_retreat(self) -> bool:
        return False


class ProtectedCentres(RuleModule):
    """Provinces nobody may attack before a phase (Small World rule 5.1): the provinces'
    `no_attack_before` key does the work (legality.py); the name documents the rule."""


def _army_fleet(names: tuple[Hook, ...]) -> RuleModule:
    return ArmyFleet(fast_ferry=Hook.FAST_FERRY in names)


def _fast_ferry(names: tuple[Hook, ...]) -> RuleModule:
    return FastFerry()


def _no_disband_retreat(names: tuple[Hook, ...]) -> RuleModule:
    return NoDisbandRetreat()


def _protected_centres(names: tuple[Hook, ...]) -> RuleModule:
    return ProtectedCentres()


# Each hook name -> the module it switches on, made from all the names the variant gives.
MODULES: dict[Hook, Callable[[tuple[Hook, ...]], RuleModule]] = {
    Hook.ARMY_FLEET: _army_fleet,
    Hook.FAST_FERRY: _fast_ferry,
    Hook.NO_DISBAND_RETREAT: _no_disband_retreat,
    Hook.PROTECTED_CENTRES: _protected_centres,
}

PLAIN = RuleHooks()  # no module: plain Diplomacy


def rule_hooks(names: Iterable[object]) -> RuleHooks:
    """The hooks of a variant whose data names these modules (refused: `UnknownHook`)."""
    hooks = check_hooks(names)
    if not hooks:
        return PLAIN
    return RuleHooks(hooks, tuple(MODULES[hook](hooks) for hook in hooks))
