"""The engine in JSON: the shapes of `judge adjudicate --jsonl`, for tools and the server.

This is the one place where engine values and JSON meet (see docs/engine-api.md).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .engine.adjudicate import PhaseResult, adjudicate, read_orders, reveal_hidden_choices
from .engine.adjustments import adjustment_counts
from .engine.geo import province_of
from .engine.legality import build_sites
from .engine.orders import Hold, Unit
from .engine.parse import OrderSyntaxError, parse_order
from .engine.retreats import retreat_options
from .engine.rules import EDITIONS
from .engine.state import NEUTRAL, Dislodged, GameState
from .engine.variant import Variant
from .variants import load_variant

DEFAULT_VARIANT = "standard"


class RequestError(ValueError):
    """The request itself is malformed (not an order problem)."""


# -- JSON -> engine -------------------------------------------------------------


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
    except ValueError as error:
        raise RequestError(str(error)) from None


def with_game_rules(variant: Variant, rules: dict[str, Any]) -> Variant:
    """A variant with one game's rule options: any option of `RuleOptions` (an `edition`
    resets the rest to that edition's), and `victory_groups` (bool) for the three-group
    victory rule of a variant that defines groups."""
    options = dict(rules)
    groups = options.pop("victory_groups", None)
    edition = options.pop("edition", None)
    base = EDITIONS[str(edition)] if edition is not None else variant.rules
    if edition is not None and str(edition) not in EDITIONS:
        raise ValueError(f"unknown rules edition {edition!r}")
    changed = replace(variant, rules=base.with_overrides(options))
    if groups is not None:
        defined = tuple(variant.extra.get("victory_groups", {}).get("groups", ()))
        if groups and not defined:
            raise ValueError(f"{variant.name} has no victory groups")
        changed = replace(changed, victory_groups=defined if groups else ())
    return changed


def parse_unit(text: str, variant: Variant) -> Unit:
    """`F SPA/SC`, `A PAR`, `Fleet Spain (south coast)`: a unit on the board."""
    try:
        order = parse_order(text, variant.map)
    except OrderSyntaxError as error:
        raise RequestError(f"bad unit {text!r}: {error}") from None
    if not isinstance(order, Hold) or order.unit.type not in ("A", "F", "AF"):
        raise RequestError(f"bad unit {text!r}: write it as 'A PAR' or 'F SPA/SC'")
    unit = order.unit
    if unit.type in ("A", "AF"):
        return Unit(unit.type, province_of(unit.location))
    province = variant.map.provinces[province_of(unit.location)]
    if province.coasts and "/" not in unit.location:
        raise RequestError(f"bad unit {text!r}: a fleet in {province.name} needs its coast")
    return unit


def state_from_json(data: dict[str, Any], variant: Variant) -> GameState:
    try:
        phase = variant.phase(str(data.get("phase") or variant.start_phase))
    except ValueError as error:
        raise RequestError(str(error)) from None
    units: dict[str, tuple[str, Unit]] = {}
    for power, texts in (data.get("units") or {}).items():
        power = power.upper()
        if power != NEUTRAL and power not in variant.power_ids:
            raise RequestError(f"unknown power {power!r}; powers: {', '.join(variant.power_ids)}")
        for text in texts:
            unit = parse_unit(text, variant)
            province = province_of(unit.location)
            if province in units:
                raise RequestError(f"two units in {province}")
            terrain = variant.map.provinces[province].terrain.value
            if terrain == "impassable" or (unit.type == "A" and terrain == "sea" and not variant.map.provinces[province].island) \
                    or (unit.type == "F" and terrain == "land") \
                    or (unit.type == "AF" and not variant.map.provinces[province].convoy_water):
                raise RequestError(f"{text!r}: that unit cannot stand in {variant.map.name(province)}")
            units[province] = (power, unit)
    if "units" not in data:
        units = initial_units(variant)
    centres: dict[str, str] = {}
    if "centers" in data or "centres" in data:
        for power, provinces in (data.get("centers") or data.get("centres") or {}).items():
            for name in provinces:
                province = variant.map.lookup(name)
                if province is None or not variant.map.provinces[province_of(province)].centre:
                    raise RequestError(f"{name!r} is not a supply centre")
                centres[province_of(province)] = power.upper()
    else:
        centres = {c: p.id for p in variant.powers for c in p.centres}
    dislodged = _dislodged_from_json(data.get("dislodged") or {}, variant, units)
    if phase.kind == "R" and not dislodged:
        raise RequestError("a retreat phase needs the dislodged units")
    if "territories" in data:
        territories = {t: power.upper() for power, ts in data["territories"].items() for t in ts}
    else:
        territories = {t: p.id for p in variant.powers for t in p.territories}
    retreated = frozenset(str(p).upper() for p in data.get("retreated", ()))
    af_moves = {str(p).upper(): int(n) for p, n in (data.get("af_moves") or {}).items()}
    return GameState(phase, units, centres, dislodged, territories, retreated, af_moves)


def _dislodged_from_json(data: dict[str, Any], variant: Variant, units: dict[str, tuple[str, Unit]]) -> dict[str, Dislodged]:
    result: dict[str, Dislodged] = {}
    for power, entries in data.items():
        for text, info in entries.items():
            unit = parse_unit(text, variant)
            if isinstance(info, str):  # short form: {"A PAR": "BUR"}
                attacker = province_of(variant.map.lookup(info) or info.upper())
                options = retreat_options(variant.map, unit, units, set(), attacker)
            else:
                attacker = info.get("attacker_from")
                options = [loc.upper() for loc in info.get("retreats", [])]
                if "retreats" not in info:
                    options = retreat_options(variant.map, unit, units, set(), attacker)
            moves_at_sea = int(info.get("af_moves", 0)) if isinstance(info, dict) else 0
            result[province_of(unit.location)] = Dislodged(power.upper(), unit, attacker, tuple(options), moves_at_sea)
    return result


def initial_units(variant: Variant) -> dict[str, tuple[str, Unit]]:
    units: dict[str, tuple[str, Unit]] = {}
    for power in variant.powers:
        for text in power.units:
            unit = parse_unit(text, variant)
            units[province_of(unit.location)] = (power.id, unit)
    for province in variant.standing_armies:
        units.setdefault(province, (NEUTRAL, Unit("A", province)))
    return units


# -- engine -> JSON -------------------------------------------------------------


def state_to_json(state: GameState, variant: Variant) -> dict[str, Any]:
    units: dict[str, list[str]] = {}
    for power, unit in state.units.values():
        units.setdefault(power, []).append(str(unit))
    centres: dict[str, list[str]] = {}
    for province, power in state.centres.items():
        centres.setdefault(power, []).append(province)
    dislodged: dict[str, dict[str, Any]] = {}
    for d in state.dislodged.values():
        entry: dict[str, Any] = {"attacker_from": d.attacker_from, "retreats": list(d.retreats)}
        if d.af_moves:
            entry["af_moves"] = d.af_moves
        dislodged.setdefault(d.power, {})[str(d.unit)] = entry
    data: dict[str, Any] = {
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


def result_to_json(result: PhaseResult, variant: Variant, request_id: Any = None) -> dict[str, Any]:
    after = state_to_json(result.state, variant)
    out: dict[str, Any] = {}
    if request_id is not None:
        out["id"] = request_id
    out.update(
        {
            "variant": variant.name,
            "phase": str(result.phase),
            "orders": [r.to_dict() for r in result.results],
            "units": after["units"],
            "dislodged": after["dislodged"],
            "centers": after["centers"],
            "next_phase": after["phase"],
            "winner": result.winner,
        }
    )
    for key in ("territories", "retreated", "af_moves"):
        if key in after:
            out[key] = after[key]
    hidden = _hidden_builds(result, variant)
    if hidden:
        out["hidden"] = hidden
    return out


def _hidden_builds(result: PhaseResult, variant: Variant) -> list[dict[str, Any]]:
    """Builds whose site stays secret until a later phase (Zeus 5 rule 4: the USA's New
    York unit may stand in New York or California). The server shows `public` instead of
    the unit until the results of `reveal_after` are published."""
    hidden = []
    for rule in variant.extra.get("hidden_builds", []):
        if variant.phase(rule["phase"]) != result.phase:
            continue
        sites = list(rule["sites"])
        for entry in result.results:
            if entry.power != rule["power"] or entry.result != "succeeds" or not (entry.order or "").startswith("BUILD "):
                continue
            unit = entry.order.removeprefix("BUILD ")
            if province_of(unit.split()[1]) in sites:
                hidden.append({
                    "power": entry.power,
                    "unit": unit,
                    "public": f"{unit.split()[0]} {'/'.join(sites)}",
                    "reveal_after": rule["reveal_after"],
                })
    return hidden


# -- the functions other layers call ---------------------------------------------


def _check_shape(data: dict[str, Any]) -> None:
    """The request's parts are the JSON types the interface documents."""
    for key in ("units", "orders", "centers", "centres", "territories"):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, dict) or not all(
            isinstance(items, list) and all(isinstance(i, str) for i in items) for items in value.values()
        ):
            raise RequestError(f'"{key}" must map each power to a list of strings')
    dislodged = data.get("dislodged")
    if dislodged is not None:
        if not isinstance(dislodged, dict) or not all(isinstance(v, dict) for v in dislodged.values()):
            raise RequestError('"dislodged" must map each power to {unit: attacker or {"attacker_from", "retreats"}}')
        for entries in dislodged.values():
            for info in entries.values():
                if not isinstance(info, (str, dict)):
                    raise RequestError('each dislodged unit needs its attacker ("BUR") or {"attacker_from", "retreats"}')


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
        result = adjudicate(variant, state, orders)
    except RequestError as error:
        return {"id": request_id, "error": str(error)}
    return result_to_json(result, variant, request_id)


def initial_state(variant_name: str) -> dict[str, Any]:
    variant = load_variant(variant_name)
    state = GameState(
        variant.start_phase,
        initial_units(variant),
        {c: p.id for p in variant.powers for c in p.centres},
        territories={t: p.id for p in variant.powers for t in p.territories},
    )
    data = state_to_json(state, variant)
    if variant.hidden_choices:
        # What the other players may see until the orders of `reveal_with` are published.
        data["hidden"] = [
            {"power": h.power, "unit": h.unit, "options": list(h.options), "reveal_with": h.reveal_with}
            for h in variant.hidden_choices
        ]
    return data


def next_state(result: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
    """The state to store for the next phase, from an adjudication result."""
    state = {
        "variant": variant or result.get("variant") or DEFAULT_VARIANT,
        "phase": result["next_phase"],
        "units": result["units"],
        "centers": result["centers"],
        "dislodged": result["dislodged"],
    }
    for key in ("territories", "retreated", "af_moves"):
        if key in result:
            state[key] = result[key]
    return state


def check_orders(state_data: dict[str, Any], power: str, lines: list[str]) -> list[dict[str, Any]]:
    """Check orders as they arrive: each line, understood or not, and why."""
    variant = _variant(state_data)
    state = reveal_hidden_choices(variant, state_from_json(state_data, variant), {power.upper(): lines})
    checks = []
    for entry in read_orders(variant, state, {power.upper(): lines}):
        order = entry.order
        unit = None
        if order is not None and hasattr(order, "unit"):
            unit = str(order.unit)
        elif entry.parsed is not None and hasattr(entry.parsed, "unit"):
            # A rejected order still names its unit, so a correction replaces it.
            here = state.units.get(province_of(entry.parsed.unit.location))
            if here is not None and here[0] == power.upper():
                unit = str(here[1])
        checks.append(
            {
                "line": entry.text,
                "ok": entry.result is None,
                "order": str(order) if order is not None else None,
                "unit": unit,
                "error": entry.result.explanation if entry.result is not None else None,
            }
        )
    return checks


def orderable(state_data: dict[str, Any], power: str) -> dict[str, Any]:
    """What `power` has to order in this phase."""
    variant = _variant(state_data)
    state = state_from_json(state_data, variant)
    power = power.upper()
    kind = state.phase.kind
    if kind == "M":
        return {"kind": "movement", "units": sorted(str(u) for u in state.units_of(power))}
    if kind == "R":
        return {"kind": "retreat", "units": sorted(str(d.unit) for d in state.dislodged.values() if d.power == power)}
    owed = adjustment_counts(variant, state).get(power, 0)
    if owed > 0:
        sites = build_sites(power, state, variant)
        return {"kind": "adjustment", "builds": min(owed, len(sites)), "sites": sorted(sites)}
    if owed < 0:
        return {"kind": "adjustment", "removals": -owed}
    return {"kind": "adjustment"}


def describe_phase(phase: str, variant_name: str = DEFAULT_VARIANT) -> str:
    return load_variant(variant_name).phase(phase).describe()


def variant_info(variant_name: str) -> dict[str, Any]:
    variant = load_variant(variant_name)
    return {
        "name": variant.name,
        "title": variant.title,
        "start_phase": str(variant.start_phase),
        "victory_centres": variant.victory_centres,
        "rules": dict(vars(variant.rules)),
        "powers": [
            {"id": p.id, "name": p.name, "adjective": p.adjective, "letter": p.letter, "home": list(p.home)}
            for p in variant.powers
        ],
    }


def variant_map(variant_name: str) -> dict[str, Any]:
    """`judge variant show --json`: every province, name, alias and border."""
    variant = load_variant(variant_name)
    game_map = variant.map
    aliases: dict[str, list[str]] = {}
    for alias, location in game_map.aliases.items():
        aliases.setdefault(location, []).append(alias)
    homes = {c: p.id for p in variant.powers for c in p.home}
    provinces = []
    for pid, prov in sorted(game_map.provinces.items()):
        entry: dict[str, Any] = {
            "id": pid,
            "name": prov.name,
            "aliases": sorted(aliases.get(pid, [])),
            "type": prov.terrain.value,
            "supply_center": prov.centre,
            "home_of": homes.get(pid),
            "coasts": [
                {"id": c, "aliases": sorted(aliases.get(c, [])), "fleet": sorted(game_map.fleet_borders.get(c, ()))}
                for c in prov.coasts
            ],
            "army": sorted(game_map.army_borders.get(pid, ())),
            "fleet": sorted(game_map.fleet_borders.get(pid, ())),
        }
        if prov.island:
            entry["island"] = True
        if prov.standing_army:
            entry["standing_army"] = True
        provinces.append(entry)
    return {**variant_info(variant_name), "provinces": provinces}
