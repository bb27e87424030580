"""Every map drawing reads true to its variant's borders (see tests/maps/mapcheck.py)."""

from __future__ import annotations

import copy

import pytest

from app.variants import VARIANTS_DIR, available, folder_names, variant_folder
from tests.maps import mapcheck

# folder of map.json -> the variant names (set-ups) that share the drawing (the registry's)
DRAWINGS = {path.parent.name: folder_names(path.parent.name) for path in sorted(VARIANTS_DIR.glob("*/map.json"))}
CASES = [(folder, setup) for folder, setups in DRAWINGS.items() for setup in setups]


def test_every_drawing_is_checked() -> None:
    """Each drawing is checked for every set-up its folder names (Small World's two), and each
    of those is a variant the judge knows that plays on that drawing."""
    assert DRAWINGS["smallworld"] == ["smallworld8", "smallworld7"]
    for folder, setups in DRAWINGS.items():
        assert set(setups) <= set(available())
        assert {variant_folder(setup).name for setup in setups} == {folder}


MAX_BYTES = 300_000  # a drawing is served with every map: keep it small


@pytest.mark.parametrize("folder", sorted(DRAWINGS))
def test_drawing_is_small(folder: str) -> None:
    assert mapcheck.map_path(folder).stat().st_size < MAX_BYTES


@pytest.mark.parametrize(("folder", "setup"), CASES, ids=[c[1] for c in CASES])
def test_drawing_follows_the_borders(folder: str, setup: str) -> None:
    problems, pairs = mapcheck.all_problems(folder, setup, DRAWINGS[folder])
    assert pairs > 0
    assert problems == [], f"{folder}: {len(problems)} problem(s):\n" + "\n".join(problems)


def _standard() -> tuple[dict, mapcheck.Facts]:
    """A fresh copy of the standard drawing (the clean one passes: see the test above)."""
    return mapcheck.load_drawing("standard"), mapcheck.variant_facts(["standard"])


def _problems(data: dict, facts: mapcheck.Facts) -> list[str]:
    shapes = {pid: mapcheck.shape_of(info["shape"]) for pid, info in data["provinces"].items()}
    crossings = {frozenset(c["between"]) for c in data["crossings"]}
    found = mapcheck.structure_problems(data, facts) + mapcheck.shape_problems(shapes)
    found += mapcheck.adjacency_problems(shapes, facts, crossings)[0]
    return found + mapcheck.crossing_problems(data, shapes) + mapcheck.anchor_problems(data, shapes, facts)


def _swap_shapes(data: dict, a: str, b: str) -> None:
    pa, pb = data["provinces"][a], data["provinces"][b]
    pa["shape"], pb["shape"] = pb["shape"], pa["shape"]


# The checker itself must catch each kind of error: (what is broken, how, expected message part)
BREAKAGES = [
    ("missing province", lambda d: d["provinces"].pop("PAR"), "PAR: in the variant but not drawn"),
    ("unknown province", lambda d: d["provinces"].__setitem__("XXX", copy.deepcopy(d["provinces"]["SWI"])), "XXX: drawn but not in the variant"),
    ("wrong kind", lambda d: d["provinces"]["PAR"].__setitem__("kind", "sea"), "PAR: kind 'sea'"),
    ("lost border", lambda d: _swap_shapes(d, "PAR", "SYR"), "BRE-PAR: adjacent, but border length"),
    ("false border", lambda d: d["provinces"]["SWI"].__setitem__("shape", copy.deepcopy(d["provinces"]["BUR"]["shape"])), "BUR-SWI"),
    ("false crossing", lambda d: d["crossings"].append({"between": ["PAR", "MOS"], "kind": "canal", "line": [d["provinces"]["PAR"]["unit"], d["provinces"]["MOS"]["unit"]]}), "MOS-PAR: crossing between provinces that are not adjacent"),
    ("label outside", lambda d: d["provinces"]["PAR"].__setitem__("label", d["provinces"]["MOS"]["label"]), "PAR: label"),
    ("coast outside", lambda d: d["provinces"]["SPA"]["coasts"]["NC"].__setitem__("unit", d["provinces"]["MOS"]["unit"]), "SPA/NC: unit"),
    ("missing centre", lambda d: d["provinces"]["PAR"].pop("centre"), "PAR: centre marker missing"),
    ("two decimals", lambda d: d["provinces"]["PAR"].__setitem__("unit", [1.25, 2.0]), "PAR.unit[0]: 1.25"),
]


@pytest.mark.parametrize(("what", "break_it", "expected"), BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_checker_catches(what: str, break_it, expected: str) -> None:
    data, facts = _standard()
    break_it(data)
    found = _problems(data, facts)
    assert any(expected in line for line in found), f"{what}: {expected!r} not in {found}"
