"""Shared helpers for the variant rule tests: positions and orders in, results out,
all through the public JSON interface (app.jsonapi), never the engine internals."""

from __future__ import annotations

from typing import Any

from app import jsonapi


def adjudicate(
    variant: str,
    phase: str,
    units: dict[str, list[str]],
    orders: dict[str, list[str]] | None = None,
    centers: dict[str, list[str]] | None = None,
    dislodged: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Adjudicate one phase of a constructed position; the request must be well formed."""
    request: dict[str, Any] = {"variant": variant, "phase": phase, "units": units, "orders": orders or {}}
    if centers is not None:
        request["centers"] = centers
    if dislodged is not None:
        request["dislodged"] = dislodged
    result = jsonapi.adjudicate_request(request)
    assert "error" not in result, result.get("error")
    return result


def entry(result: dict[str, Any], line: str) -> dict[str, Any]:
    """The result entry of the order written as `line` (not a judge-supplied default)."""
    for item in result["orders"]:
        if item["order"] == line and not item.get("default"):
            return item
    raise AssertionError(f"no result for {line!r} in {[o['order'] for o in result['orders']]}")


def outcome(result: dict[str, Any], line: str) -> str:
    return entry(result, line)["result"]


def owner_of(result: dict[str, Any], province: str) -> tuple[str, str] | None:
    """(power, unit text) of the unit standing in `province` after the phase, or None."""
    for power, units in result["units"].items():
        for unit in units:
            if province_of_unit(unit) == province:
                return power, unit
    return None


def province_of_unit(unit: str) -> str:
    """`F SPA/NC` -> `SPA`; `A/F NWG` -> `NWG`."""
    return unit.split(" ", 1)[1].split("/")[0].strip().upper()


def unit_types(result: dict[str, Any]) -> dict[str, str]:
    """province -> unit text, every unit on the board after the phase."""
    return {province_of_unit(u): u for units in result["units"].values() for u in units}


def check(variant: str, phase: str, units: dict[str, list[str]], power: str, line: str,
          centers: dict[str, list[str]] | None = None) -> dict[str, Any]:
    state: dict[str, Any] = {"variant": variant, "phase": phase, "units": units}
    if centers is not None:
        state["centers"] = centers
    [checked] = jsonapi.check_orders(state, power, [line])
    return checked


def centre_count(variant: str) -> int:
    return sum(1 for p in jsonapi.variant_map(variant)["provinces"] if p["supply_center"])


def centres_of(variant: str) -> list[str]:
    return sorted(p["id"] for p in jsonapi.variant_map(variant)["provinces"] if p["supply_center"])
