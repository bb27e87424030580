"""The one place the services call the engine: a game's variant with the game's rule options,
stored phases to engine values and back, order checks, what a power must order, adjudication.

Every call takes a ``Variant`` made by ``game_variant`` (the game's own rule options applied),
so no engine call can forget them.  Stored JSON meets engine values only through the codec
functions imported below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.engine.adjudicate import PhaseResult, read_orders, reveal_hidden_choices
from app.engine.adjudicate import adjudicate as engine_adjudicate
from app.engine.adjustments import adjustment_counts
from app.engine.geo import province_of
from app.engine.legality import build_sites
from app.engine.orders import Order
from app.engine.parse import OrderSyntaxError, parse_order
from app.engine.state import GameState
from app.engine.variant import Variant
from app.jsonapi import RequestError, result_to_json, state_from_json, state_to_json, with_game_rules
from app.services.errors import DomainError
from app.variants import load_variant

__all__ = [
    "OrderCheck",
    "OrderNeed",
    "adjudicate",
    "check_orders",
    "game_rules",
    "game_variant",
    "order_need",
    "parse_unit_key",
    "result_json",
    "state_json",
    "state_of",
    "unit_province",
]


@dataclass(frozen=True)
class OrderCheck:
    """One order line as the engine read it: legal (``order``, its unit) or why not."""

    line: str
    ok: bool
    order: str | None  # the order as the judge understood it, in short form
    unit: str | None  # the unit it orders (``A PAR``), also for a rejected order of an own unit
    error: str | None


@dataclass(frozen=True)
class OrderNeed:
    """What a power has to order in a phase."""

    kind: str  # movement | retreat | adjustment
    units: tuple[str, ...] = ()
    builds: int = 0
    removals: int = 0
    sites: tuple[str, ...] = ()


def game_rules(settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """A game's own rule options (SET RULE), as stored in its settings."""
    return dict((settings or {}).get("rules") or {})


def _frozen(rules: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(rules.items()))


@lru_cache(maxsize=256)
def _variant(name: str, rules: tuple[tuple[str, Any], ...]) -> Variant:
    variant = load_variant(name)
    return with_game_rules(variant, dict(rules)) if rules else variant


def game_variant(name: str, rules: Mapping[str, Any] | None = None) -> Variant:
    """The variant with a game's rule options; refuses unknown options with a ``DomainError``."""
    try:
        return _variant(name, _frozen(rules or {}))
    except LookupError as error:
        raise DomainError("unknown_variant", str(error)) from error
    except ValueError as error:
        raise DomainError("bad_rule", f"rule options refused: {error}") from error


def state_of(variant: Variant, stored: Mapping[str, Any]) -> GameState:
    """A stored position (a phase's ``state_before`` / ``state_after``) as the engine's state."""
    try:
        return state_from_json(dict(stored), variant)
    except RequestError as error:
        raise DomainError("bad_state", f"the stored position cannot be read: {error}") from error


def state_json(variant: Variant, state: GameState) -> dict[str, Any]:
    return state_to_json(state, variant)


def result_json(variant: Variant, result: PhaseResult) -> dict[str, Any]:
    """A phase result in the stored shape (``phases.results``)."""
    return result_to_json(result, variant)


def adjudicate(variant: Variant, state: GameState, orders: Mapping[str, Sequence[str | Order]]) -> PhaseResult:
    return engine_adjudicate(variant, state, {power.upper(): list(lines) for power, lines in orders.items()})


def check_orders(variant: Variant, state: GameState, power: str, lines: Sequence[str]) -> list[OrderCheck]:
    """Check orders as they arrive: each line, understood or not, and why."""
    power = power.upper()
    state = reveal_hidden_choices(variant, state, {power: list(lines)})
    checks: list[OrderCheck] = []
    for entry in read_orders(variant, state, {power: list(lines)}):
        order = entry.order
        unit: str | None = None
        if order is not None and hasattr(order, "unit"):
            unit = str(order.unit)
        elif entry.parsed is not None and hasattr(entry.parsed, "unit"):
            # A rejected order still names its unit, so a correction replaces it.
            here = state.units.get(province_of(entry.parsed.unit.location))
            if here is not None and here[0] == power:
                unit = str(here[1])
        checks.append(OrderCheck(
            line=entry.text, ok=entry.result is None, order=str(order) if order is not None else None,
            unit=unit, error=entry.result.explanation if entry.result is not None else None,
        ))
    return checks


def parse_unit_key(variant: Variant, line: str) -> str | None:
    """The unit an order names (``A PAR``), read with the map but not checked against a position
    (orders given in advance); None when the line cannot be read."""
    try:
        order = parse_order(line, variant.map)
    except OrderSyntaxError:
        return None
    unit = getattr(order, "unit", None)
    return str(unit).upper() if unit is not None else None


def unit_province(variant: Variant, text: str) -> str | None:
    """The province a player or GM names (``PAR``, ``Paris``, ``A PAR``, ``F STP/SC``), or None."""
    location = variant.map.lookup(text.strip())
    if location is not None:
        return province_of(location)
    try:
        order = parse_order(text, variant.map)
    except OrderSyntaxError:
        return None
    unit = getattr(order, "unit", None)
    return province_of(unit.location) if unit is not None else None


def order_need(variant: Variant, state: GameState, power: str) -> OrderNeed:
    """What ``power`` has to order in the phase of ``state``."""
    power = power.upper()
    kind = state.phase.kind
    if kind == "M":
        return OrderNeed("movement", units=tuple(sorted(str(u) for u in state.units_of(power))))
    if kind == "R":
        return OrderNeed("retreat", units=tuple(sorted(str(d.unit) for d in state.dislodged.values()
                                                       if d.power == power)))
    owed = adjustment_counts(variant, state).get(power, 0)
    if owed > 0:
        sites = build_sites(power, state, variant)
        return OrderNeed("adjustment", builds=min(owed, len(sites)), sites=tuple(sorted(sites)))
    if owed < 0:
        return OrderNeed("adjustment", removals=-owed)
    return OrderNeed("adjustment")
