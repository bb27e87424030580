"""Checks of a map drawing (`variants/<name>/map.json`) against the variant's borders.

The rules are those of the map format (docs in the maprender/mapdata briefs): every province
drawn and nothing else; valid, non-overlapping shapes; adjacent provinces share a visible
border or are joined by a crossing; other pairs share no border and no crossing; anchors lie
inside their province, coast anchors near the water they face.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shapely.geometry import LineString, MultiPolygon, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from app.variants import VARIANTS_DIR, load_variant

MIN_BORDER = 4.0  # map units: a shared border shorter than this is not visible
MAX_OVERLAP = 0.5  # square map units
COAST_REACH = 30.0  # a coast's unit anchor lies at most this far from a sea its fleets reach
CROSSING_KINDS = {"canal", "land_crossing", "passage", "ferry"}
KINDS = {"land", "coast", "sea", "impassable"}


@dataclass(frozen=True)
class Facts:
    """What the variant says about its provinces (union of the set-ups sharing the drawing)."""

    kinds: dict[str, str]
    adjacent: dict[str, frozenset[str]]
    coasts: dict[str, dict[str, frozenset[str]]]
    centres: frozenset[str]


def variant_facts(names: list[str]) -> Facts:
    kinds: dict[str, str] = {}
    adjacent: dict[str, set[str]] = {}
    coasts: dict[str, dict[str, frozenset[str]]] = {}
    centres: set[str] = set()
    for name in names:
        game_map = load_variant(name).map
        for pid, province in game_map.provinces.items():
            kinds[pid] = province.terrain.value
            adjacent.setdefault(pid, set()).update(game_map.army_borders.get(pid, ()))
            if province.centre:
                centres.add(pid)
        for location, others in game_map.fleet_borders.items():
            pid, _, coast = location.partition("/")
            reached = frozenset(other.split("/")[0] for other in others)
            adjacent.setdefault(pid, set()).update(reached)
            for other in reached:
                adjacent.setdefault(other, set()).add(pid)
            if coast:
                coasts.setdefault(pid, {})[coast] = reached
    return Facts(kinds, {p: frozenset(q - {p}) for p, q in adjacent.items()}, coasts, frozenset(centres))


def load_drawing(folder: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((VARIANTS_DIR / folder / "map.json").read_text())
    return data


def map_path(folder: str) -> Path:
    return VARIANTS_DIR / folder / "map.json"


def shape_of(rings_list: list[list[list[list[float]]]]) -> BaseGeometry:
    polygons = [Polygon(rings[0], rings[1:]) for rings in rings_list]
    return polygons[0] if len(polygons) == 1 else MultiPolygon(polygons)


def _number_problems(value: Any, where: str) -> list[str]:
    if isinstance(value, bool):
        return [f"{where}: boolean where a number is expected"]
    if isinstance(value, int):
        return []
    if isinstance(value, float):
        return [] if round(value, 1) == value else [f"{where}: {value} has more than one decimal"]
    if isinstance(value, list):
        return [p for k, item in enumerate(value) for p in _number_problems(item, f"{where}[{k}]")]
    return [f"{where}: {value!r} is not a number"]


def structure_problems(data: dict[str, Any], facts: Facts) -> list[str]:
    out = []
    if data.get("format") != 1:
        out.append(f"format is {data.get('format')!r}, expected 1")
    drawn, known = set(data.get("provinces", {})), set(facts.kinds)
    out += [f"{p}: in the variant but not drawn" for p in sorted(known - drawn)]
    out += [f"{p}: drawn but not in the variant" for p in sorted(drawn - known)]
    for pid, info in sorted(data.get("provinces", {}).items()):
        if pid not in facts.kinds:
            continue
        if info.get("kind") != facts.kinds[pid]:
            out.append(f"{pid}: kind {info.get('kind')!r}, the variant says {facts.kinds[pid]!r}")
        out += _number_problems(info.get("shape"), f"{pid}.shape")
        for key in ("label", "unit", "centre", "name_label"):
            if key in info:
                out += _number_problems(info[key], f"{pid}.{key}")
        for k, point in enumerate(info.get("more_labels", [])):
            out += _number_problems(point, f"{pid}.more_labels[{k}]")
        if (pid in facts.centres) != ("centre" in info):
            out.append(f"{pid}: centre marker {'missing' if pid in facts.centres else 'on a non-centre'}")
        if set(info.get("coasts", {})) != set(facts.coasts.get(pid, {})):
            out.append(f"{pid}: coasts {sorted(info.get('coasts', {}))}, the variant has {sorted(facts.coasts.get(pid, {}))}")
    return out


def shape_problems(shapes: dict[str, BaseGeometry]) -> list[str]:
    return [f"{p}: invalid or empty shape" for p, g in sorted(shapes.items()) if g.is_empty or not g.is_valid]


def shared_borders(shapes: dict[str, BaseGeometry]) -> tuple[dict[frozenset[str], float], list[str]]:
    """Length of the border of every pair of shapes that meet, and the overlaps found."""
    ids = sorted(shapes)
    geoms = [shapes[p] for p in ids]
    tree = STRtree(geoms)
    lengths: dict[frozenset[str], float] = {}
    overlaps = []
    for k, p in enumerate(ids):
        for m in tree.query(geoms[k]):
            q = ids[int(m)]
            if q <= p:
                continue
            common = geoms[k].intersection(geoms[int(m)])
            if common.is_empty:
                continue
            if common.area > MAX_OVERLAP:
                overlaps.append(f"{p}-{q}: shapes overlap (area {common.area:.1f})")
            lengths[frozenset((p, q))] = common.length
    return lengths, overlaps


def adjacency_problems(
    shapes: dict[str, BaseGeometry], facts: Facts, crossings: set[frozenset[str]]
) -> tuple[list[str], int]:
    """Every pair checked both ways; returns the problems and the number of adjacent pairs."""
    lengths, out = shared_borders(shapes)
    pairs = {frozenset((p, q)) for p, qs in facts.adjacent.items() for q in qs}
    for pair in sorted(pairs, key=sorted):
        p, q = sorted(pair)
        length = lengths.get(pair, 0.0)
        if length < MIN_BORDER and pair not in crossings:
            out.append(f"{p}-{q}: adjacent, but border length {length:.1f} and no crossing")
    for pair, length in sorted(lengths.items(), key=lambda item: sorted(item[0])):
        p, q = sorted(pair)
        if pair not in pairs and length > 0:
            out.append(f"{p}-{q}: not adjacent, but share a border of length {length:.1f}")
    for pair in sorted(crossings, key=sorted):
        if pair not in pairs:
            out.append(f"{'-'.join(sorted(pair))}: crossing between provinces that are not adjacent")
    return out, len(pairs)


def crossing_problems(data: dict[str, Any], shapes: dict[str, BaseGeometry]) -> list[str]:
    out = []
    for entry in data.get("crossings", []):
        between = entry.get("between", [])
        name = "-".join(between)
        if len(between) != 2 or any(p not in shapes for p in between):
            out.append(f"crossing {name}: needs two drawn provinces")
            continue
        if entry.get("kind") not in CROSSING_KINDS:
            out.append(f"crossing {name}: kind {entry.get('kind')!r}")
        line = entry.get("line", [])
        if len(line) < 2:
            out.append(f"crossing {name}: line needs two points")
            continue
        out += _number_problems(line, f"crossing {name}.line")
        for point, pid in ((line[0], between[0]), (line[-1], between[1])):
            if shapes[pid].distance(Point(point)) > 1.0:
                out.append(f"crossing {name}: end {point} is not in {pid}")
        if LineString(line).length == 0:
            out.append(f"crossing {name}: empty line")
    return out


def anchor_problems(data: dict[str, Any], shapes: dict[str, BaseGeometry], facts: Facts) -> list[str]:
    out = []
    for pid, info in sorted(data["provinces"].items()):
        shape = shapes.get(pid)
        if shape is None or shape.is_empty:
            continue
        for key in ("label", "unit", "centre", "name_label"):
            if key in info and not Point(info[key]).within(shape):
                out.append(f"{pid}: {key} {info[key]} is outside the province")
        for point in info.get("more_labels", []):
            if not Point(point).within(shape):
                out.append(f"{pid}: more_labels {point} is outside the province")
        for coast, anchors in info.get("coasts", {}).items():
            for key in ("unit", "label"):
                if not Point(anchors[key]).within(shape):
                    out.append(f"{pid}/{coast}: {key} {anchors[key]} is outside the province")
            reached = [shapes[q] for q in facts.coasts.get(pid, {}).get(coast, ()) if q in shapes]
            if reached and min(g.distance(Point(anchors["unit"])) for g in reached) > COAST_REACH:
                out.append(f"{pid}/{coast}: unit anchor far from the water it faces")
    return out


def all_problems(folder: str, setup: str, sharing: list[str]) -> tuple[list[str], int]:
    """The problems of `folder`'s drawing for one set-up; `sharing`: every set-up drawn by it."""
    data = load_drawing(folder)
    facts = variant_facts([setup])
    out = structure_problems(data, variant_facts(sharing))
    shapes = {pid: shape_of(info["shape"]) for pid, info in data["provinces"].items() if pid in facts.kinds}
    out += shape_problems(shapes)
    valid = {p: g for p, g in shapes.items() if g.is_valid and not g.is_empty}
    crossings = {frozenset(c.get("between", [])) for c in data.get("crossings", [])}
    adjacency, pairs = adjacency_problems(valid, facts, crossings)
    out += adjacency + crossing_problems(data, valid) + anchor_problems(data, valid, facts)
    return out, pairs
