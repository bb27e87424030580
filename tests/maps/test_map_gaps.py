"""The thin gaps the generator leaves between land provinces that may not touch read as
land (the drawing's background land), not as water: inside a land mass a strip of water
would look like a strait or a river the rules do not have. Near a sea (or a lake: Small
World's Caspian) the gap may stay water."""

from __future__ import annotations

import pytest
import shapely
from shapely.geometry import LineString
from shapely.ops import nearest_points

from tests.maps import mapcheck

LAKES = {"smallworld": {"CAS"}}
HAS_INLAND_GAPS = {"standard": True, "zeus5": False, "smallworld": True}  # so the test checks something
GAP = 12.0  # map units: provinces closer than this (but not touching) have a gap between them
NEAR_WATER = 14.0  # a gap point this close to a sea or a lake may stay water


def _background(data: dict) -> shapely.Geometry:
    polygons = [mapcheck.shape_of([p]) for p in (data.get("background") or {}).get("land", [])]
    return shapely.union_all(polygons) if polygons else shapely.Polygon()


@pytest.mark.parametrize("folder", sorted(HAS_INLAND_GAPS))
def test_gaps_inside_land_masses_are_drawn_as_land(folder: str) -> None:
    data = mapcheck.load_drawing(folder)
    shapes = {pid: mapcheck.shape_of(info["shape"]) for pid, info in data["provinces"].items()}
    lakes = LAKES.get(folder, set())
    water = shapely.union_all([s for pid, s in shapes.items() if data["provinces"][pid]["kind"] == "sea" or pid in lakes])
    covered = shapely.union_all([_background(data), *shapes.values()])
    land = sorted(pid for pid, info in data["provinces"].items() if info["kind"] != "sea" and pid not in lakes)
    checked, wet = 0, []
    for i, a in enumerate(land):
        for b in land[i + 1 :]:
            distance = shapes[a].distance(shapes[b])
            if not 0 < distance <= GAP:
                continue
            pa, pb = nearest_points(shapes[a], shapes[b])
            middle = LineString([pa, pb]).interpolate(0.5, normalized=True)
            if middle.distance(water) <= NEAR_WATER:
                continue
            checked += 1
            if not covered.buffer(0.5).contains(middle):
                wet.append(f"{a}-{b} at ({middle.x:.0f}, {middle.y:.0f})")
    assert (checked > 0) == HAS_INLAND_GAPS[folder]
    assert wet == [], f"{folder}: water shows between land provinces: {', '.join(wet)}"


@pytest.mark.parametrize("folder", ["standard", "zeus5", "smallworld"])
def test_background_land_stays_off_the_seas(folder: str) -> None:
    data = mapcheck.load_drawing(folder)
    background = _background(data)
    for pid, info in data["provinces"].items():
        if info["kind"] == "sea":
            assert background.intersection(mapcheck.shape_of(info["shape"])).area < 1.0, pid
