"""The pictures in docs/maps/: each variant's start, and results maps showing every kind of
order, as the judge mails them (`phase_map_png`). Run from the repository root:
`.venv/bin/python scripts/make_map_docs.py`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import jsonapi  # noqa: E402
from app.maps import phase_map_png  # noqa: E402

OUT = ROOT / "docs" / "maps"

# Fall 1901: moves, convoys, supports given and cut, bounces, a dislodgement.
AUTUMN: dict[str, Any] = {
    "variant": "standard", "phase": "F1901M",
    "units": {
        "ENGLAND": ["F NTH", "A YOR", "F ENG"], "FRANCE": ["A BEL", "A PIC", "A BUR", "F MAO"],
        "GERMANY": ["A HOL", "A MUN", "F KIE"], "ITALY": ["A VEN", "A APU", "F ION"],
        "AUSTRIA": ["A TRI", "A GAL", "A BUD"], "RUSSIA": ["A UKR", "A WAR", "F BOT", "F SEV"],
        "TURKEY": ["A BUL", "A ARM", "F BLA"],
    },
    "centers": {
        "AUSTRIA": ["BUD", "TRI", "VIE"], "ENGLAND": ["EDI", "LON", "LVP"], "FRANCE": ["BRE", "MAR", "PAR"],
        "GERMANY": ["BER", "KIE", "MUN"], "ITALY": ["NAP", "ROM", "VEN"], "RUSSIA": ["MOS", "SEV", "STP", "WAR"],
        "TURKEY": ["ANK", "CON", "SMY"],
    },
    "orders": {
        "ENGLAND": ["F NTH C A YOR - HOL", "A YOR - HOL", "F ENG S F NTH"],
        "FRANCE": ["A BEL S A YOR - HOL", "A PIC - BEL", "A BUR - MUN", "F MAO - SPA/NC"],
        "GERMANY": ["A HOL H", "A MUN H", "F KIE - DEN"],
        "ITALY": ["F ION C A APU - TUN", "A APU - TUN", "A VEN H"],
        "AUSTRIA": ["A TRI - SER", "A BUD S A TRI - SER", "A GAL - RUM"],
        "RUSSIA": ["A UKR - RUM", "F SEV S A UKR - RUM", "F BOT - SWE", "A WAR - GAL"],
        "TURKEY": ["A BUL - SER", "A ARM - SEV", "F BLA S A ARM - SEV"],
    },
}
WINTER: dict[str, Any] = {
    "variant": "standard", "phase": "W1901A",
    "units": {"ENGLAND": ["F NTH", "A HOL"], "FRANCE": ["A BEL", "F SPA/NC"], "GERMANY": ["A MUN", "F DEN", "A KIE", "A SIL"],
              "RUSSIA": ["F SWE", "A UKR"]},
    "centers": {"ENGLAND": ["EDI", "LON", "LVP", "HOL"], "FRANCE": ["BRE", "MAR", "PAR", "BEL", "SPA"],
                "GERMANY": ["BER", "KIE", "MUN"], "RUSSIA": ["MOS", "SEV", "STP", "SWE"]},
    "orders": {"ENGLAND": ["BUILD F LON", "BUILD A EDI"], "FRANCE": ["BUILD A PAR", "WAIVE"],
               "GERMANY": ["REMOVE A SIL"], "RUSSIA": ["BUILD F STP/NC"]},
}
FERRY: dict[str, Any] = {
    "variant": "smallworld8", "phase": "S02M",
    "units": {"WESTERN_EUROPE": ["A SPA", "F WMS", "A/F NWG", "A/F NTH"], "NEUTRAL": ["A IND", "A HAW"],
              "ISLAM": ["A PAK", "A AFG"], "NORTH_AMERICA": ["F CAL", "A TEX", "F NYK"]},
    "af_moves": {"NTH": 3},
    "orders": {"WESTERN_EUROPE": ["A SPA boards F WMS", "A/F NWG - SCA", "A/F NTH H"],
               "ISLAM": ["A PAK - IND", "A AFG S A PAK - IND"], "NORTH_AMERICA": ["F CAL - NPO", "A TEX - MEX"]},
}


def _write(name: str, png: bytes) -> None:
    path = OUT / f"{name}.png"
    path.write_bytes(png)
    print(f"wrote {path.relative_to(ROOT)}")


def _results(name: str, request: dict[str, Any], title: str) -> dict[str, Any]:
    result = jsonapi.adjudicate_request(request)
    if "error" in result:
        raise SystemExit(f"{name}: {result['error']}")
    position = {k: v for k, v in request.items() if k != "orders"}
    _write(name, phase_map_png(request["variant"], position, result, title=title))
    return result


# Two dislodged units retreat to the same province: both are destroyed (crossed).
STANDOFF: dict[str, Any] = {
    "variant": "standard", "phase": "F1901R", "units": {"ENGLAND": ["A BUR", "F SWE"]},
    "dislodged": {"GERMANY": {"A RUH": {"attacker_from": "BUR", "retreats": ["KIE", "HOL"]}},
                  "FRANCE": {"F DEN": {"attacker_from": "SWE", "retreats": ["KIE", "HEL"]}}},
    "orders": {"GERMANY": ["A RUH R KIE"], "FRANCE": ["F DEN R KIE"]},
}


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for variant in ("standard", "zeus5", "smallworld8", "smallworld7"):
        _write(variant, phase_map_png(variant, jsonapi.initial_state(variant), None, title=f"{variant}: the start"))
    autumn = _results("standard-results-movement", AUTUMN, "Every movement order")
    retreats = jsonapi.next_state(autumn)
    dislodged = [(p, u) for p, us in retreats["dislodged"].items() for u in us]
    _write("standard-retreat-position", phase_map_png("standard", retreats, None, title="Retreats to order"))
    orders = {p: [] for p, _ in dislodged}
    for i, (power, unit) in enumerate(dislodged):
        options = retreats["dislodged"][power][unit]["retreats"]
        orders[power].append(f"{unit} R {options[0]}" if i % 2 == 0 and options else f"{unit} D")
    _results("standard-results-retreats", {**retreats, "orders": orders}, "Retreats and disbands")
    _results("standard-results-retreat-standoff", STANDOFF, "Two retreats to Kiel: both destroyed")
    _results("standard-results-adjustments", WINTER, "Builds, removals, a waived build")
    zeus = jsonapi.initial_state("zeus5")
    _results("zeus5-results-hidden-build", {**zeus, "orders": {"USA": ["BUILD A WAS", "BUILD A HAW", "BUILD F NYK"]}},
             "Zeus 5: the USA's secret build site")
    _results("smallworld8-results-army-fleet", FERRY, "Small World: A/F, Fast Ferry, standing armies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
