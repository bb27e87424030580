"""The engine port: the one place the services reach the engine (an import-linter contract
keeps it so).  A game's variant with the game's rule options, stored phases to engine values
and back (through ``app.db.codec``), order checks, what a power must order, adjudication, a
variant's description and opening position; the variant registry (the names games are played
under, their offers and HELP sections: ``app.variants``); and the engine's value types the use
cases name (``Variant``, ``GameState``, ``Order``, ``Unit``..., the typed outcomes of ``outcomes``),
re-exported.  A stored phase read as typed values (``StoredState``, ``StoredResult``) is
``ruleset.stored``'s.

Every call takes a ``Variant`` made by ``game_variant`` (the game's own rule options applied),
so no engine call can forget them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from app import variant_json
from app.db import codec
from app.engine import api as engine
from app.engine import outcomes
from app.engine.adjudicate import OrderInput
from app.engine.api import GameState, Orderable, OrderCheck, PhaseResult, RuleOptionError, Variant
from app.engine.convoy import fleet_routes
from app.engine.geo import province_of
from app.engine.orders import (
    Board,
    Build,
    Convoy,
    Disband,
    Hold,
    Land,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from app.engine.outcomes import Outcome
from app.engine.parse import OrderSyntaxError, parse_order
from app.engine.setup import read_unit
from app.engine.variant import with_game_rules
from app.engine.victory import update_centres
from app.services.errors import DomainError
from app.variants import (
    DEFAULT_VARIANT,
    VariantEntry,
    available,
    help_section,
    load_game_variant,
    load_variant,
    offered,
)

__all__ = [
    "DEFAULT_VARIANT",
    "Board",
    "Build",
    "Convoy",
    "Disband",
    "GameState",
    "Hold",
    "Land",
    "Move",
    "Order",
    "OrderCheck",
    "Outcome",
    "OrderInput",
    "Orderable",
    "PhaseResult",
    "Remove",
    "Retreat",
    "SupportHold",
    "SupportMove",
    "Unit",
    "Variant",
    "VariantEntry",
    "Waive",
    "adjudicate",
    "available",
    "check_orders",
    "convoy_path",
    "game_rules",
    "game_variant",
    "help_section",
    "initial_state",
    "load_variant",
    "offered",
    "order_from_json",
    "order_json",
    "order_need",
    "orders_from_json",
    "orders_json",
    "outcome_json",
    "outcome_of",
    "outcomes",
    "parse_unit",
    "province_of",
    "read_order",
    "read_unit",
    "result_json",
    "state_json",
    "state_of",
    "unit_province",
    "variant_description",
    "with_game_rules",
]

def game_rules(settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """A game's own rule options (SET RULE), as stored in its settings."""
    return dict((settings or {}).get("rules") or {})


@lru_cache(maxsize=256)
def _variant(name: str, rules: tuple[tuple[str, Any], ...]) -> Variant:
    return load_game_variant(name, dict(rules))


def game_variant(name: str, rules: Mapping[str, Any] | None = None) -> Variant:
    """The variant with a game's rule options; refuses unknown options with a ``DomainError``."""
    try:
        return _variant(name, tuple(sorted((rules or {}).items())))
    except RuleOptionError as error:
        raise DomainError("bad_rule", f"rule options refused: {error}") from error
    except LookupError as error:
        raise DomainError("unknown_variant", str(error)) from error


def variant_description(name: str) -> dict[str, Any]:
    """A map variant's powers, rules and provinces (``app.variant_json``): its data, not a game's."""
    try:
        return variant_json.with_map(load_variant(name))
    except LookupError as error:
        raise DomainError("unknown_variant", str(error)) from error


def initial_state(name: str) -> dict[str, Any]:
    """The stored opening position of a map variant (a new game's first phase)."""
    try:
        return codec.initial_state_to_json(load_variant(name))
    except LookupError as error:
        raise DomainError("unknown_variant", str(error)) from error


def state_of(variant: Variant, stored: Mapping[str, Any]) -> GameState:
    """A stored position (a phase's ``state_before`` / ``state_after``) as the engine's state."""
    try:
        return codec.state_from_json(stored, variant)
    except codec.CodecError as error:
        raise DomainError("bad_state", f"the stored position cannot be read: {error}") from error


def state_json(variant: Variant, state: GameState) -> dict[str, Any]:
    return codec.state_to_json(state, variant)


def result_json(variant: Variant, result: PhaseResult) -> dict[str, Any]:
    """A phase result in the stored shape (``phases.results``)."""
    return codec.result_to_json(result, variant)


def order_json(order: Order) -> dict[str, Any]:
    return codec.order_to_json(order)


def order_from_json(data: Mapping[str, Any]) -> Order:
    return codec.order_from_json(data)


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """An outcome in the stored shape (``{"kind": "bounced", "by": "MUN", ...}``)."""
    return codec.outcome_to_json(outcome)


def outcome_of(data: Mapping[str, Any]) -> Outcome:
    """A stored order result's ``outcome`` object as the engine's typed outcome (one of
    ``outcomes``); ``ValueError`` when it is not one."""
    return codec.outcome_from_json(data)


def orders_json(orders: Mapping[str, Sequence[Order]]) -> dict[str, list[dict[str, Any]]]:
    return codec.orders_to_json(orders)


def orders_from_json(data: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, list[Order]]:
    return codec.orders_from_json(data)


def centres_after_moves(variant: Variant, stored: Mapping[str, Any]) -> dict[str, Any]:
    """A stored retreat-phase position with the Fall's centres changed hands as its moves left them
    (the retreats not yet made): what the old course is compared with when a correction means the
    retreat phase is no longer played."""
    state = state_of(variant, stored)
    update_centres(variant, state)
    return state_json(variant, state)


def retype_orders(state: GameState, orders: Mapping[str, Sequence[OrderInput]]) -> dict[str, list[OrderInput]]:
    """Stored orders replayed on a changed position name the unit now there, as the engine reads
    them (DATC 4.C.1 fills in the unit type): a replayed ``A SEV - RUM`` is stored and shown as
    ``F SEV - RUM`` once an override has put a fleet in Sevastopol.  Order texts (older phases),
    builds and orders for a province where the power has no unit are kept as they are."""
    retyped: dict[str, list[OrderInput]] = {}
    for power, items in orders.items():
        out: list[OrderInput] = []
        for order in items:
            unit = getattr(order, "unit", None)
            if isinstance(order, str | Build) or not isinstance(unit, Unit):
                out.append(order)
                continue
            province = province_of(unit.location)
            there: Unit | None = None
            if isinstance(order, Retreat):
                dislodged = state.dislodged.get(province)
                there = dislodged.unit if dislodged is not None and dislodged.power == power.upper() else None
            elif (held := state.units.get(province)) is not None and held[0] == power.upper():
                there = held[1]
            if there is not None and there.type != unit.type:
                order = replace(order, unit=Unit(there.type, there.location))  # type: ignore[arg-type]
            out.append(order)
        retyped[power] = out
    return retyped


def adjudicate(variant: Variant, state: GameState, orders: Mapping[str, Sequence[OrderInput]]) -> PhaseResult:
    return engine.adjudicate(variant, state, {power.upper(): list(lines) for power, lines in orders.items()})


def check_orders(variant: Variant, state: GameState, power: str, lines: Sequence[OrderInput]) -> list[OrderCheck]:
    """Check orders as they arrive: each line, understood or not, and why."""
    return engine.check_orders(variant, state, power, list(lines))


def order_need(variant: Variant, state: GameState, power: str) -> Orderable:
    """What ``power`` has to order in the phase of ``state``."""
    return engine.orderable(variant, state, power)


def read_order(variant: Variant, text: str) -> Order | None:
    """An order's stored text read back with the map (for the results' English), or None."""
    try:
        return parse_order(text, variant.map)
    except OrderSyntaxError:
        return None


def convoy_path(variant: Variant, source: str, target: str, fleets: Sequence[str], by_convoy: bool) -> tuple[str, ...]:
    """The fleets an army's move from ``source`` to ``target`` goes through, in order (the
    shortest chain of the ``fleets`` ordered to convoy it), for the results' ``-> North Sea ->``;
    empty when the move went by land or no chain of them reaches."""
    source, target = province_of(source), province_of(target)
    if not fleets or (not by_convoy and variant.map.army_can_move(source, target)):
        return ()
    routes = fleet_routes(source, target, [province_of(f) for f in fleets], variant.map)
    return min(routes, key=len) if routes else ()


def parse_unit(variant: Variant, line: str) -> Unit | None:
    """The unit an order names, read with the map but not checked against a position
    (orders given in advance); None when the line cannot be read."""
    try:
        order = parse_order(line, variant.map)
    except OrderSyntaxError:
        return None
    unit = getattr(order, "unit", None)
    return unit if isinstance(unit, Unit) else None


def unit_province(variant: Variant, text: str) -> str | None:
    """The province a player or GM names (``PAR``, ``Paris``, ``A PAR``, ``F STP/SC``), or None."""
    location = variant.map.lookup(text.strip())
    if location is not None:
        return province_of(location)
    unit = parse_unit(variant, text)
    return province_of(unit.location) if unit is not None else None
