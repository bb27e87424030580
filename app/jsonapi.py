"""The engine for the command line: `judge adjudicate` requests in, JSON answers out.

The JSON shapes themselves are `app.db.codec`'s (see docs/engine-api.md); this module
checks a request, loads its variant with its rule options and calls the engine.
"""

from __future__ import annotations

from typing import Any

import orjson

from . import variant_json
from .db import codec
from .db.codec import CodecError, parse_unit, result_to_json, state_from_json, state_to_json
from .engine import api as engine
from .engine.phases import PhaseKind
from .engine.rules import RuleOptionError
from .engine.setup import initial_units
from .engine.variant import Variant
from .engine.variant import with_game_rules as with_game_rules
from .variants import DEFAULT_VARIANT, load_variant

__all__ = [
    "DEFAULT_VARIANT",
    "RequestError",
    "adjudicate_line",
    "adjudicate_request",
    "check_orders",
    "describe_phase",
    "initial_state",
    "initial_units",
    "next_state",
    "orderable",
    "parse_unit",
    "result_to_json",
    "state_from_json",
    "state_to_json",
    "variant_info",
    "variant_map",
    "with_game_rules",
]


RequestError = CodecError  # the request itself is malformed (not an order problem)


def _variant(data: dict[str, Any]) -> Variant:
    try:
        variant = load_variant(str(data.get("variant") or DEFAULT_VARIANT))
    except LookupError as error:
        raise RequestError(str(error)) from None
    rules = data.get("rules")
    if not rules:
        return variant
    if not isinstance(rules, dict):
        raise RequestError('"rules" must be an object of rule options')
    try:
        return with_game_rules(variant, rules)
    except RuleOptionError as error:
        raise RequestError(str(error)) from None


def _check_shape(data: dict[str, Any]) -> None:
    """The request's parts are the JSON types the interface documents."""
    for key in ("units", "orders", "centers", "centres", "territories"):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, dict):
            raise RequestError(f'"{key}" must map each power to a list of strings')
        if not all(_strings(items) for items in value.values()):
            raise RequestError(f'"{key}" must map each power to a list of strings')
    dislodged = data.get("dislodged")
    if dislodged is not None:
        if not isinstance(dislodged, dict) or not all(isinstance(v, dict) for v in dislodged.values()):
            raise RequestError('"dislodged" must map each power to {unit: attacker or {"attacker_from", "retreats"}}')
        for entries in dislodged.values():
            for info in entries.values():
                if not isinstance(info, (str, dict)):
                    raise RequestError('each dislodged unit needs its attacker ("BUR") or {"attacker_from", "retreats"}')
                if isinstance(info, dict) and not _dislodged_detail_ok(info):
                    raise RequestError('a dislodged unit\'s "attacker_from" is a string or null, its "retreats" '
                                       'a list of strings and its "af_moves" a number')
    if "retreated" in data and not _strings(data["retreated"]):
        raise RequestError('"retreated" must be a list of strings')
    af_moves = data.get("af_moves")
    if af_moves is not None and not (isinstance(af_moves, dict) and all(_count(n) for n in af_moves.values())):
        raise RequestError('"af_moves" must map each power to a number')


def _strings(value: Any) -> bool:
    return type(value) is list and all(type(i) is str for i in value)


def _count(value: Any) -> bool:
    return type(value) is int


def _dislodged_detail_ok(info: dict[str, Any]) -> bool:
    attacker = info.get("attacker_from")
    return ((attacker is None or type(attacker) is str) and ("retreats" not in info or _strings(info["retreats"]))
            and _count(info.get("af_moves", 0)))


def adjudicate_request(data: dict[str, Any]) -> dict[str, Any]:
    """One `judge adjudicate` request in, its result out. Bad requests get an `error`."""
    request_id = data.get("id")
    try:
        _check_shape(data)
        variant = _variant(data)
        state = state_from_json(data, variant)
        orders = {power.upper(): list(lines) for power, lines in (data.get("orders") or {}).items()}
        for power in orders:
            if power not in variant.power_ids:
                raise RequestError(f"unknown power {power!r}; powers: {', '.join(variant.power_ids)}")
        result = engine.adjudicate(variant, state, orders)
    except RequestError as error:
        return {"id": request_id, "error": str(error)}
    return result_to_json(result, variant, request_id)


def adjudicate_line(line: str | bytes) -> bytes:
    """One line of `judge adjudicate --jsonl`: a request's JSON text in, its result's
    JSON text out (one line, no newline). A line that is not a JSON object gets an
    `error`, like any bad request."""
    try:
        request = orjson.loads(line)
    except orjson.JSONDecodeError as error:
        response: dict[str, Any] = {"id": None, "error": f"not JSON: {error}"}
    else:
        if isinstance(request, dict):
            response = adjudicate_request(request)
        else:
            response = {"id": None, "error": "a request must be a JSON object"}
    return orjson.dumps(response)


def initial_state(variant_name: str) -> dict[str, Any]:
    return codec.initial_state_to_json(load_variant(variant_name))


def next_state(result: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
    """The state to store for the next phase, from an adjudication result."""
    return codec.next_state_json(result, variant)


def check_orders(state_data: dict[str, Any], power: str, lines: list[str]) -> list[dict[str, Any]]:
    """Check orders as they arrive: each line, understood or not, and why."""
    variant = _variant(state_data)
    state = state_from_json(state_data, variant)
    return [
        {
            "line": check.line,
            "ok": check.ok,
            "order": str(check.order) if check.order is not None else None,
            "unit": str(check.unit) if check.unit is not None else None,
            "error": check.error,
        }
        for check in engine.check_orders(variant, state, power, lines)
    ]


def orderable(state_data: dict[str, Any], power: str) -> dict[str, Any]:
    """What `power` has to order in this phase."""
    variant = _variant(state_data)
    todo = engine.orderable(variant, state_from_json(state_data, variant), power)
    if todo.kind is not PhaseKind.ADJUSTMENT:
        return {"kind": todo.kind.word, "units": [str(u) for u in todo.units]}
    if todo.builds or todo.sites:
        return {"kind": PhaseKind.ADJUSTMENT.word, "builds": todo.builds, "sites": list(todo.sites)}
    if todo.removals:
        return {"kind": PhaseKind.ADJUSTMENT.word, "removals": todo.removals}
    return {"kind": PhaseKind.ADJUSTMENT.word}


def describe_phase(phase: str, variant_name: str = DEFAULT_VARIANT) -> str:
    return load_variant(variant_name).phase(phase).describe()


def variant_info(variant_name: str) -> dict[str, Any]:
    return variant_json.summary(load_variant(variant_name))


def variant_map(variant_name: str) -> dict[str, Any]:
    """`judge variant show --json`: every province, name, alias and border."""
    return variant_json.with_map(load_variant(variant_name))
