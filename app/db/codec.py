"""Engine values ⇄ JSON: the one place the stored (and `judge adjudicate`) format meets
the engine.

Positions, orders and phase results are stored as JSON in the shapes documented in
docs/engine-api.md; a change of shape here is a data migration, so fields are only
ever added. Nothing else in `app` reads or writes these shapes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

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
from app.engine.outcomes import OUTCOME_TYPES, OrderResult, Outcome
from app.engine.phase_result import HiddenBuild, PhaseResult, RevealedStart
from app.engine.phases import PhaseKind
from app.engine.retreats import retreat_options
from app.engine.setup import BadUnit, initial_centres, initial_state, initial_territories, read_unit, standing_unit
from app.engine.state import NEUTRAL, Dislodged, GameState
from app.engine.variant import Variant
from app.variants import DEFAULT_VARIANT

__all__ = [
    "CodecError",
    "hidden_starts_to_json",
    "initial_state_to_json",
    "next_state_json",
    "order_from_json",
    "order_result_from_json",
    "order_result_to_json",
    "order_to_json",
    "outcome_from_json",
    "outcome_to_json",
    "orders_from_json",
    "orders_to_json",
    "parse_unit",
    "result_from_json",
    "result_to_json",
    "state_from_json",
    "state_to_json",
]

Json = dict[str, Any]


class CodecError(ValueError):
    """Stored or requested JSON that does not describe a position, order or result."""


# -- units and positions --------------------------------------------------------


def parse_unit(text: str, variant: Variant) -> Unit:
    """`F SPA/SC`, `A PAR`, `Fleet Spain (south coast)`: a unit on the board."""
    try:
        return read_unit(text, variant)
    except BadUnit as error:
        raise CodecError(str(error)) from None


def state_from_json(data: Mapping[str, Any], variant: Variant) -> GameState:
    """A stored position (the `units`, `centers`, `dislodged` … of a state or request).
    Missing `units` / `centers` / `territories` mean the variant's start."""
    try:
        phase = variant.phase(str(data.get("phase") or variant.start_phase))
    except ValueError as error:
        raise CodecError(str(error)) from None
    if "units" in data:
        units = _units_from_json(data.get("units") or {}, variant)
    else:
        units = initial_state(variant).units
    if "centers" in data or "centres" in data:
        centres = _centres_from_json(data.get("centers") or data.get("centres") or {}, variant)
    else:
        centres = initial_centres(variant)
    dislodged = _dislodged_from_json(data.get("dislodged") or {}, variant, units)
    if phase.kind is PhaseKind.RETREAT and not dislodged:
        raise CodecError("a retreat phase needs the dislodged units")
    if "territories" in data:
        territories = {t: power.upper() for power, ts in (data["territories"] or {}).items() for t in ts}
    else:
        territories = initial_territories(variant)
    retreated = frozenset(str(p).upper() for p in data.get("retreated", ()))
    af_moves = {str(p).upper(): int(n) for p, n in (data.get("af_moves") or {}).items()}
    return GameState(phase, units, centres, dislodged, territories, retreated, af_moves)


def _units_from_json(data: Mapping[str, Sequence[str]], variant: Variant) -> dict[str, tuple[str, Unit]]:
    units: dict[str, tuple[str, Unit]] = {}
    for key, texts in data.items():
        power = key.upper()
        if power != NEUTRAL and power not in variant.power_ids:
            raise CodecError(f"unknown power {power!r}; powers: {', '.join(variant.power_ids)}")
        for text in texts:
            try:
                unit = standing_unit(text, variant)
            except BadUnit as error:
                raise CodecError(str(error)) from None
            province = province_of(unit.location)
            if province in units:
                raise CodecError(f"two units in {province}")
            units[province] = (power, unit)
    return units


def _centres_from_json(data: Mapping[str, Sequence[str]], variant: Variant) -> dict[str, str]:
    centres: dict[str, str] = {}
    for power, provinces in data.items():
        for name in provinces:
            location = variant.map.lookup(name)
            if location is None or not variant.map.provinces[province_of(location)].centre:
                raise CodecError(f"{name!r} is not a supply centre")
            centres[province_of(location)] = power.upper()
    return centres


def _dislodged_from_json(
    data: Mapping[str, Mapping[str, Any]], variant: Variant, units: dict[str, tuple[str, Unit]]
) -> dict[str, Dislodged]:
    """`{"GERMANY": {"A BUR": {"attacker_from": "PAR", "retreats": [...]}}}`, or the short
    form `{"A BUR": "PAR"}` (the retreats are then worked out from the board)."""
    result: dict[str, Dislodged] = {}
    for power, entries in data.items():
        for text, info in entries.items():
            unit = parse_unit(text, variant)
            moves_at_sea = 0
            if isinstance(info, str):
                attacker: str | None = province_of(variant.map.lookup(info) or info.upper())
                options = retreat_options(variant.map, unit, units, set(), attacker)
            else:
                attacker = info.get("attacker_from")
                if "retreats" in info:
                    options = [str(loc).upper() for loc in info["retreats"]]
                else:
                    options = retreat_options(variant.map, unit, units, set(), attacker)
                moves_at_sea = int(info.get("af_moves", 0))
            result[province_of(unit.location)] = Dislodged(power.upper(), unit, attacker, tuple(options), moves_at_sea)
    return result


def state_to_json(state: GameState, variant: Variant, destroyed: Sequence[Dislodged] = ()) -> Json:
    """The position as stored. `destroyed`: dislodged units with no retreat that a result
    still lists under `dislodged` (with no retreats) although they are gone."""
    units: dict[str, list[str]] = {}
    for power, unit in state.units.values():
        units.setdefault(power, []).append(str(unit))
    centres: dict[str, list[str]] = {}
    for province, power in state.centres.items():
        centres.setdefault(power, []).append(province)
    dislodged: dict[str, dict[str, Any]] = {}
    for d in (*state.dislodged.values(), *destroyed):
        entry: dict[str, Any] = {"attacker_from": d.attacker_from, "retreats": list(d.retreats)}
        if d.af_moves:
            entry["af_moves"] = d.af_moves
        dislodged.setdefault(d.power, {})[str(d.unit)] = entry
    data: Json = {
        "variant": variant.name,
        "phase": str(state.phase),
        "units": {p: sorted(v) for p, v in sorted(units.items())},
        "centers": {p: sorted(v) for p, v in sorted(centres.items())},
        "dislodged": dislodged,
    }
    if state.territories:
        territories: dict[str, list[str]] = {}
        for province, power in state.territories.items():
            territories.setdefault(power, []).append(province)
        data["territories"] = {p: sorted(v) for p, v in sorted(territories.items())}
    if state.retreated:
        data["retreated"] = sorted(state.retreated)
    if state.af_moves:
        data["af_moves"] = dict(sorted(state.af_moves.items()))
    return data


def hidden_starts_to_json(variant: Variant) -> list[Json]:
    """Starting units whose coast or type stays secret until the orders of `reveal_with`
    are published (Small World 6.1/6.2)."""
    return [
        {"power": h.power, "unit": h.unit, "options": list(h.options), "reveal_with": h.reveal_with}
        for h in variant.hidden_choices
    ]


def initial_state_to_json(variant: Variant) -> Json:
    """The stored first position of a game, with its hidden starting units if any."""
    data = state_to_json(initial_state(variant), variant)
    if variant.hidden_choices:
        data["hidden"] = hidden_starts_to_json(variant)
    return data


_STATE_KEYS = ("territories", "retreated", "af_moves")


def _retreats_carried(result: Mapping[str, Any]) -> bool:
    """A Fall movement followed by the Winter phase that carries its retreats (Small World
    11.2): some dislodged unit still has a retreat (units with none were destroyed)."""
    if not (_is_movement(str(result.get("phase", "")))
            and PhaseKind.of(str(result["next_phase"])) is PhaseKind.ADJUSTMENT):
        return False
    waiting = (result.get("dislodged") or {}).values()
    return any(isinstance(e, Mapping) and e.get("retreats") for units in waiting for e in units.values())


def next_state_json(result: Mapping[str, Any], variant: str | None = None) -> Json:
    """The stored state of the next phase, from a stored phase result (dislodged units
    only when a retreat phase follows: others were destroyed)."""
    retreat_next = PhaseKind.of(str(result["next_phase"])) is PhaseKind.RETREAT or _retreats_carried(result)
    state: Json = {
        "variant": variant or result.get("variant") or DEFAULT_VARIANT,
        "phase": result["next_phase"],
        "units": result["units"],
        "centers": result["centers"],
        "dislodged": result["dislodged"] if retreat_next else {},
    }
    for key in _STATE_KEYS:
        if key in result:
            state[key] = result[key]
    return state


# -- orders ---------------------------------------------------------------------

_ORDER_KINDS: dict[str, type[Order]] = {
    "hold": Hold,
    "move": Move,
    "support_hold": SupportHold,
    "support_move": SupportMove,
    "convoy": Convoy,
    "board": Board,
    "land": Land,
    "retreat": Retreat,
    "disband": Disband,
    "build": Build,
    "remove": Remove,
    "waive": Waive,
}
_KIND_OF: dict[type[Order], str] = {cls: kind for kind, cls in _ORDER_KINDS.items()}


def order_to_json(order: Order) -> Json:
    """A typed order as JSON: `{"kind": "move", "unit": {"type": "A", "location": "PAR"},
    "target": "BUR", "via_convoy": false}`; fields are the order's own."""
    data: Json = {"kind": _KIND_OF[type(order)]}
    for name in order.__dataclass_fields__:
        value = getattr(order, name)
        data[name] = {"type": value.type, "location": value.location} if isinstance(value, Unit) else value
    return data


def order_from_json(data: Mapping[str, Any]) -> Order:
    kind = _ORDER_KINDS.get(str(data.get("kind")))
    if kind is None:
        raise CodecError(f"unknown order kind {data.get('kind')!r}; kinds: {', '.join(_ORDER_KINDS)}")
    values: dict[str, Any] = {}
    for name in kind.__dataclass_fields__:
        if name not in data:
            continue
        value = data[name]
        if name == "unit":
            if not isinstance(value, Mapping) or not {"type", "location"} <= set(value):
                raise CodecError(f"an order's unit must be {{'type', 'location'}}, not {value!r}")
            value = Unit(str(value["type"]), str(value["location"]))
        values[name] = value
    try:
        return kind(**values)
    except TypeError as error:
        raise CodecError(f"bad {data.get('kind')} order {dict(data)!r}: {error}") from None


def orders_to_json(orders: Mapping[str, Sequence[Order]]) -> dict[str, list[Json]]:
    return {power: [order_to_json(o) for o in items] for power, items in orders.items()}


def orders_from_json(data: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, list[Order]]:
    return {power: [order_from_json(o) for o in items] for power, items in data.items()}


# -- phase results -------------------------------------------------------------------


_OUTCOME_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(item.name for item in fields(cls)) for cls in OUTCOME_TYPES.values()
}


def outcome_to_json(outcome: Outcome) -> Json:
    """`{"kind": "bounced", "by": "BUR", "attack": 1, "opposing": 1, "against": "prevent"}`:
    the outcome's kind and its fields (nested outcomes as objects, tuples as lists)."""
    data: Json = {"kind": outcome.kind}
    for name in _OUTCOME_FIELDS[type(outcome)]:
        value = getattr(outcome, name)
        kind = type(value)
        if kind is str or value is None or kind is int or kind is bool:
            data[name] = value
        elif kind is tuple:
            data[name] = list(value)
        else:
            data[name] = outcome_to_json(value)
    return data


def outcome_from_json(data: Mapping[str, Any]) -> Outcome:
    kind = OUTCOME_TYPES.get(str(data.get("kind")))
    if kind is None:
        raise CodecError(f"unknown outcome kind {data.get('kind')!r}")
    values: dict[str, Any] = {}
    for item in fields(kind):
        if item.name not in data:
            continue
        value = data[item.name]
        if isinstance(value, list):
            value = tuple(value)
        elif isinstance(value, Mapping):
            value = outcome_from_json(value)
        values[item.name] = value
    try:
        return kind(**values)
    except TypeError as error:
        raise CodecError(f"bad {data.get('kind')} outcome: {error}") from None


def order_result_to_json(result: OrderResult) -> Json:
    data: Json = {
        "power": result.power,
        "order": result.text,
        "normalized": result.order,
        "result": result.result,
        "reason": result.reason,
        "explanation": result.explanation,
    }
    if result.default:
        data["default"] = True
    if result.dislodged_by:
        data["dislodged_by"] = result.dislodged_by
    if result.outcome is not None:
        data["outcome"] = outcome_to_json(result.outcome)
    return data


def order_result_from_json(data: Mapping[str, Any]) -> OrderResult:
    outcome = data.get("outcome")
    return OrderResult(
        power=str(data["power"]),
        text=str(data["order"]),
        order=data.get("normalized"),
        result=str(data["result"]),
        reason=str(data["reason"]),
        explanation=str(data["explanation"]),
        default=bool(data.get("default", False)),
        dislodged_by=data.get("dislodged_by"),
        outcome=outcome_from_json(outcome) if isinstance(outcome, Mapping) else None,
    )


def result_to_json(result: PhaseResult, variant: Variant, request_id: Any = None) -> Json:
    """A phase result as `judge adjudicate` prints it and the server stores it."""
    after = state_to_json(result.state, variant, result.destroyed)
    out: Json = {}
    if request_id is not None:
        out["id"] = request_id
    out.update(
        {
            "variant": variant.name,
            "phase": str(result.phase),
            "orders": [order_result_to_json(r) for r in result.results],
            "units": after["units"],
            "dislodged": after["dislodged"],
            "centers": after["centers"],
            "next_phase": after["phase"],
            "winner": result.winner,
        }
    )
    for key in _STATE_KEYS:
        if key in after:
            out[key] = after[key]
    if result.hidden_builds:
        out["hidden"] = [_hidden_build_to_json(h) for h in result.hidden_builds]
    if result.revealed:
        out["revealed"] = [{"power": r.power, "unit": str(r.unit)} for r in result.revealed]
    return out


def _hidden_build_to_json(hidden: HiddenBuild) -> Json:
    """Zeus 5 rule 4: the server shows `public` instead of the unit until the results of
    `reveal_after` are published."""
    return {
        "power": hidden.power,
        "unit": str(hidden.unit),
        "public": hidden.public,
        "reveal_after": hidden.reveal_after,
    }


def result_from_json(data: Mapping[str, Any], variant: Variant) -> PhaseResult:
    """A stored phase result back as the engine's value (units removed during the
    phase are not stored, so `removed` comes back empty)."""
    try:
        phase = variant.phase(str(data["phase"]))
    except (KeyError, ValueError) as error:
        raise CodecError(f"not a phase result: {error}") from None
    state = state_from_json(next_state_json(data, variant.name), variant)
    destroyed: tuple[Dislodged, ...] = ()
    if state.phase.kind is not PhaseKind.RETREAT and not state.dislodged and _is_movement(str(data["phase"])):
        units = _units_from_json(data.get("units") or {}, variant)
        destroyed = tuple(_dislodged_from_json(data.get("dislodged") or {}, variant, units).values())
    hidden = tuple(
        HiddenBuild(
            power=str(h["power"]),
            unit=parse_unit(str(h["unit"]), variant),
            public=str(h["public"]),
            reveal_after=str(h["reveal_after"]),
        )
        for h in data.get("hidden") or ()
    )
    revealed = tuple(
        RevealedStart(str(r["power"]), parse_unit(str(r["unit"]), variant)) for r in data.get("revealed") or ()
    )
    return PhaseResult(
        phase=phase,
        results=[order_result_from_json(r) for r in data.get("orders") or ()],
        state=state,
        winner=data.get("winner"),
        hidden_builds=hidden,
        revealed=revealed,
        destroyed=destroyed,
    )


def _is_movement(code: str) -> bool:
    """A movement phase's code (``S1901M``); an empty code is none."""
    return bool(code) and code.strip()[-1:].upper() == PhaseKind.MOVEMENT.value
