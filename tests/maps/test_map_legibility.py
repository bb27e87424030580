"""At 1,000 px wide every abbreviation reads on its own: no two overlap, none is covered by
a unit, and the full names and coast labels keep clear of both. Boxes are the renderer's type sizes
(`app/maps/style.pixel`: 11 px bold abbreviations, 8.5 px names, 9.5 px unit radius at
1,000 px) with DejaVu Sans' average advance; impassable provinces hold no units."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from shapely.geometry import Point, Polygon, box

from app.variants import load_variant
from tests.maps import mapcheck

SETUP = {"standard": "standard", "zeus5": "zeus5", "smallworld": "smallworld8"}

ABBR_EM, NAME_EM = 0.72, 0.58  # average advance per character, in ems (bold capitals, names)
SLACK = 3.0  # square units (at 1,000 px) of overlap tolerated: antialiasing, not a collision


def _text(at: Sequence[float], chars: int, font: float, em: float) -> Polygon:
    x, y = at
    w, h = chars * em * font / 2, font / 2
    return box(x - w, y - h, x + w, y + h)


def _drawn(folder: str) -> tuple[dict[str, Polygon], dict[str, Polygon], list[tuple[str, Polygon]], float]:
    data = mapcheck.load_drawing(folder)
    px = data["width"] / 1000
    names = {pid: p.name for pid, p in load_variant(SETUP[folder]).map.provinces.items()}
    abbrs, full, coasts, units = {}, {}, {}, []
    for pid, info in data["provinces"].items():
        abbrs[pid] = _text(info["label"], len(pid), 11 * px, ABBR_EM)
        for k, again in enumerate(info.get("more_labels", [])):
            abbrs[f"{pid}#{k + 2}"] = _text(again, len(pid), 11 * px, ABBR_EM)
        for coast, where in info.get("coasts", {}).items():
            if where.get("label") is not None:
                coasts[f"{pid}/{coast}"] = _text(where["label"], 2, 8 * px, NAME_EM)
        if "name_label" in info:
            full[pid] = _text(info["name_label"], len(names[pid]), 8.5 * px, NAME_EM)
        if info["kind"] != "impassable":
            r = 9.5 * px
            for x, y in [info["unit"], *(c["unit"] for c in info.get("coasts", {}).values())]:
                units.append((pid, box(x - 1.3 * r, y - r, x + 1.3 * r, y + r)))  # a fleet's hull is the wider
    return abbrs, full | coasts, units, px


@pytest.mark.parametrize("folder", ["standard", "zeus5", "smallworld"])
def test_abbreviations_and_names_do_not_collide(folder: str) -> None:
    abbrs, full, units, px = _drawn(folder)
    slack = SLACK * px * px
    found = []
    texts = [(f"{pid}", b) for pid, b in abbrs.items()] + [(f"{key} name", b) for key, b in full.items()]
    for i, (a, box_a) in enumerate(texts):
        for b, box_b in texts[i + 1 :]:
            if box_a.intersection(box_b).area > slack:
                found.append(f"{a} / {b}")
        for owner, unit in units:
            if "/" in a and a.startswith(f"{owner}/"):
                continue  # a coast's label under its own province's unit: the unit shows the coast
            if box_a.intersection(unit).area > slack:
                found.append(f"{a} under the unit of {owner}")
    assert found == [], f"{folder}: " + ", ".join(found)


@pytest.mark.parametrize("folder", ["standard", "zeus5", "smallworld"])
def test_every_large_part_of_a_sea_is_labelled(folder: str) -> None:
    """A sea drawn on both sides of a world map (Small World's Bering Sea, Pacific and
    Roaring 40's) carries its abbreviation on both sides."""
    data = mapcheck.load_drawing(folder)
    px = data["width"] / 1000
    unlabelled = []
    for pid, info in data["provinces"].items():
        points = [Point(*p) for p in [info["label"], *info.get("more_labels", [])]]
        for polygon in info["shape"]:
            part = Polygon(polygon[0], polygon[1:])
            if part.area >= 3000 * px * px and not any(part.contains(point) for point in points):
                unlabelled.append(f"{pid} near {part.representative_point().coords[0]}")
    assert unlabelled == [], f"{folder}: " + ", ".join(unlabelled)
