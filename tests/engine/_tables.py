"""Table rows for the direct engine tests (resolver, legality, adjustments).

A row is a position, the orders, and what must come out: each listed order's result
and reason code (`fails:bounce`, `invalid:illegal`, `succeeds`), optionally words of
its explanation, and the board after. Rows go through `app.jsonapi.adjudicate_request`,
the documented `judge adjudicate` interface, so they do not depend on the engine's
internal modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from app import jsonapi


@dataclass(frozen=True)
class Row:
    id: str
    why: str  # the rule this row protects, and what a regression would look like
    units: dict[str, list[str]]
    orders: dict[str, list[str]]
    expect: dict[str, str]  # order line (as written, or a default's text) -> "result[:reason]"
    after: dict[str, list[str]] | None = None  # every unit on the board after the phase
    variant: str = "standard"
    phase: str = "S1901M"
    rules: dict[str, Any] | None = None
    centers: dict[str, list[str]] | None = None
    dislodged: dict[str, Any] | None = None
    explains: dict[str, str] = field(default_factory=dict)  # order line -> words its explanation holds
    next_phase: str | None = None


def params(rows: list[Row]) -> list[Any]:
    return [pytest.param(row, id=row.id) for row in rows]


def run(row: Row) -> dict[str, Any]:
    request: dict[str, Any] = {"variant": row.variant, "phase": row.phase, "units": row.units, "orders": row.orders}
    if row.rules is not None:
        request["rules"] = row.rules
    if row.centers is not None:
        request["centers"] = row.centers
    if row.dislodged is not None:
        request["dislodged"] = row.dislodged
    result = jsonapi.adjudicate_request(request)
    assert "error" not in result, result.get("error")
    return result


def entry(result: dict[str, Any], line: str) -> dict[str, Any]:
    """The result of the order written as `line`; else of the judge's default with that text."""
    found: list[dict[str, Any]] = [item for item in result["orders"] if item["order"] == line]
    found.sort(key=lambda item: bool(item.get("default")))
    assert found, f"no result for {line!r} in {[o['order'] for o in result['orders']]}"
    return found[0]


def check(row: Row) -> dict[str, Any]:
    result = run(row)
    for line, cell in row.expect.items():
        got = entry(result, line)
        want, _, reason = cell.partition(":")
        assert got["result"] == want, f"{row.id}: {line!r}: {got}"
        if reason:
            assert got["reason"] == reason, f"{row.id}: {line!r}: {got}"
    for line, words in row.explains.items():
        assert words in entry(result, line)["explanation"], f"{row.id}: {line!r}: {entry(result, line)}"
    if row.after is not None:
        got_units = {p: sorted(us) for p, us in result["units"].items() if us}
        assert got_units == {p: sorted(us) for p, us in row.after.items() if us}, f"{row.id}: units after"
    if row.next_phase is not None:
        assert result["next_phase"] == row.next_phase, f"{row.id}: next phase"
    return result
