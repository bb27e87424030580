"""Every DATC v3.0 test case of sections 6.A-6.J, from the tables in tests/engine/datc/."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from app import jsonapi
from app.engine.adjudicate import adjudicate
from app.engine.outcomes import FAILS, INVALID, SUCCEEDS, Reason
from app.engine.variant import Variant
from app.variants import VARIANTS_DIR, load_variant, variant_from_data

DATC_DIR = Path(__file__).parent / "datc"
RESULTS = {SUCCEEDS, FAILS, INVALID}
REASONS = {str(getattr(value, "value", value)) for name, value in vars(Reason).items() if name.isupper()}


def _expected(cell: str) -> tuple[str, str | None]:
    """`fails:bounce` -> ("fails", "bounce"); `succeeds` -> ("succeeds", None).

    Every order has an expected result, and every order that fails or is invalid
    says why (its reason code): a table cell that does not is a broken table.
    """
    result, _, reason = cell.partition(":")
    if result not in RESULTS:
        raise ValueError(f"unknown expected result {cell!r}")
    if reason and reason not in REASONS:
        raise ValueError(f"unknown reason code in {cell!r}")
    if result != SUCCEEDS and not reason:
        raise ValueError(f"{cell!r}: a failed or invalid order needs its reason code")
    return result, reason or None


def _cases() -> list[Any]:
    params = []
    for path in sorted(DATC_DIR.glob("section_6*.toml")):
        with path.open("rb") as handle:
            data = tomllib.load(handle)
        for case in data["case"]:
            params.append(pytest.param(case, id=case["id"]))
    return params


def _variant(rules: dict[str, Any] | None) -> Variant:
    if not rules:
        return load_variant("standard")
    with (VARIANTS_DIR / "standard" / "variant.toml").open("rb") as handle:
        data = tomllib.load(handle)
    data["rules"] = {**data.get("rules", {}), **rules}
    return variant_from_data(data)


def _board(units: dict[str, list[str]]) -> dict[str, list[str]]:
    return {power: sorted(u.upper() for u in us) for power, us in units.items() if us}


@pytest.mark.parametrize("case", _cases())
def test_datc(case: dict[str, Any]) -> None:
    variant = _variant(case.get("rules"))
    state_json: dict[str, Any] = {}
    for number, phase in enumerate(case["phase"]):
        request = {
            "phase": phase["phase"],
            "units": phase["units"] if number == 0 else state_json["units"],
            "dislodged": {} if number == 0 else state_json["dislodged"],
        }
        if "centres" in phase:
            request["centers"] = phase["centres"]
        elif number > 0:
            request["centers"] = state_json["centers"]
        state = jsonapi.state_from_json(request, variant)
        result = adjudicate(variant, state, phase.get("orders", {}))
        got = jsonapi.result_to_json(result, variant)
        where = f"{case['id']} {phase['phase']}"
        given = [r for r in got["orders"] if not r.get("default")]
        for power, expected in phase.get("results", {}).items():
            outcomes = [r for r in given if r["power"] == power]
            assert len(outcomes) == len(expected), f"{where}: {power} results {outcomes}"
            for outcome, cell in zip(outcomes, expected):
                want, reason = _expected(cell)
                assert outcome["result"] == want, f"{where}: {outcome['order']!r}: {outcome}"
                if reason is not None:
                    assert outcome["reason"] == reason, f"{where}: {outcome['order']!r}: {outcome}"
        assert _board(got["units"]) == _board(phase["after"]), f"{where}: units after"
        got_dislodged = {p: sorted(d) for p, d in got["dislodged"].items() if d}
        want_dislodged = {p: sorted(d) for p, d in phase.get("dislodged", {}).items() if d}
        if phase["phase"].endswith("M"):
            assert got_dislodged == want_dislodged, f"{where}: dislodged"
        state_json = got
