"""Generate variants/<name>/map.json from the variant's borders and variants/<name>/map-anchors.toml.

Usage: python tools/mapgen/build.py <variant folder>|all [--check-only]

Every folder with a map-anchors.toml is drawn, once for all the set-ups its variant.toml names
(the variant registry, app/variants.py).
"""

from __future__ import annotations

import json
import math
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shapely.geometry import LineString  # noqa: E402
from shapely.geometry import Point as ShapelyPoint  # noqa: E402
from shapely.geometry.base import BaseGeometry  # noqa: E402
from shapely.ops import unary_union  # noqa: E402

from app.variants import VARIANTS_DIR, folder_names  # noqa: E402
from tools.mapgen.check import problems  # noqa: E402
from tools.mapgen.gaps import land_gaps  # noqa: E402
from tools.mapgen.graph import Graph, province_graph  # noqa: E402
from tools.mapgen.grow import CORRIDOR_REACH, WIDE_REACH, Point, contacts, grow, split_path  # noqa: E402
from tools.mapgen.labels import coast_anchors, crossing_line, label_box, more_labels, name_anchor, place_provinces  # noqa: E402
from tools.mapgen.shapes import region_polygons, rings_json, simplify  # noqa: E402

SHORT_BORDER = 3  # cell sides: adjacent pairs meeting along less are reported (legibility)
# folder -> the variant names (set-ups) that share its drawing
SETUPS = {path.parent.name: folder_names(path.parent.name) for path in sorted(VARIANTS_DIR.glob("*/map-anchors.toml"))}


def _project(spec: dict[str, Any], values: list[float]) -> Point:
    kind = spec.get("kind", "xy")
    if kind == "sinusoidal":
        lat, lon = values
        scale = spec["scale"]
        x = spec["x_centre"] + (lon - spec["lon0"]) * math.cos(math.radians(lat)) * scale
        y = (spec["lat_top"] - lat) * scale
        return (x, y)
    if kind == "warp":  # piecewise linear in x and in y: [[in, out], ...]
        return (_piecewise(spec["x_warp"], values[0]), _piecewise(spec["y_warp"], values[1]))
    factor = spec.get("factor", 1.0)
    return (values[0] * factor + spec.get("dx", 0.0), values[1] * factor + spec.get("dy", 0.0))


def _piecewise(table: list[list[float]], value: float) -> float:
    for (x0, y0), (x1, y1) in zip(table, table[1:]):
        if value <= x1 or (x1, y1) == tuple(table[-1]):
            return y0 + (value - x0) * (y1 - y0) / (x1 - x0)
    return value


def _fit(spec: dict[str, Any], anchors: dict[str, list[Point]], extra: list[list[Point]]) -> None:
    """Optional fisheye (enlarge the middle of the board) and fit to the frame, in place."""
    fish = spec.get("fisheye")
    if not fish:
        return
    cx, cy = _project(spec.get("projection", {}), fish["centre"])
    gamma, reach = fish["gamma"], fish["radius"]

    def warp(point: Point) -> Point:
        dx, dy = point[0] - cx, point[1] - cy
        r = math.hypot(dx, dy)
        if r == 0:
            return point
        f = (r / reach) ** gamma * reach / r
        return (dx * f, dy * f)

    for key in anchors:
        anchors[key] = [warp(p) for p in anchors[key]]
    for path in extra:
        path[:] = [warp(p) for p in path]
    xs = [p[0] for ps in anchors.values() for p in ps]
    ys = [p[1] for ps in anchors.values() for p in ps]
    margin = fish["margin"]
    sx = (spec["width"] - 2 * margin) / (max(xs) - min(xs))
    sy = (spec["height"] - 2 * margin) / (max(ys) - min(ys))
    x0, y0 = min(xs), min(ys)

    def fit(point: Point) -> Point:
        return (margin + (point[0] - x0) * sx, margin + (point[1] - y0) * sy)

    for key in anchors:
        anchors[key] = [fit(p) for p in anchors[key]]
    for path in extra:
        path[:] = [fit(p) for p in path]


def _anchors(name: str, spec: dict[str, Any], graph: Graph) -> dict[str, list[Point]]:
    """Anchors from map-anchors.toml, else from the variant's own `xy` (and `xy2`)."""
    projection = spec.get("projection", {})
    variant = tomllib.loads((ROOT / "variants" / name / "variant.toml").read_text())
    out: dict[str, list[Point]] = {}
    for pid in graph.kinds:
        given = spec.get("anchors", {}).get(pid)
        if given is not None:
            points = given if isinstance(given[0], list) else [given]
            out[pid] = [_project(projection, p) for p in points]
            continue
        info = variant["provinces"][pid]
        out[pid] = [_project(projection, info[key]) for key in ("xy", "xy2") if key in info]
    return out


def _ends(
    p: str, q: str, anchors: dict[str, list[Point]], spines: dict[str, list[list[Point]]], via: list[Point]
) -> tuple[tuple[Point, float], tuple[Point, float]]:
    """Where the path of an adjacent pair starts in each province, and how far along its spine."""
    a, b = min(((a, b) for a in anchors[p] for b in anchors[q]), key=lambda ab: math.dist(*ab))
    ends = []
    for me, mine, other in ((p, a, via[0] if via else b), (q, b, via[-1] if via else a)):
        if me in spines:
            line = min((LineString(ln) for ln in spines[me]), key=lambda ln: ln.distance(ShapelyPoint(other)))
            along = line.project(ShapelyPoint(other))
            point = line.interpolate(along)
            ends.append(((point.x, point.y), along))
        else:
            ends.append((mine, 0.0))
    return ends[0], ends[1]


@dataclass
class Layout:
    """Everything the growth needs: anchors, who may touch whom, and the corridors."""

    spec: dict[str, Any]
    graph: Graph
    ids: list[str]
    anchors: dict[str, list[Point]]
    may_touch: dict[str, frozenset[str]]
    crossings: dict[frozenset[str], dict[str, Any]]
    corridors: list[tuple[str, list[Point], float, frozenset[str] | None]]  # province, line, offset, pair


def layout(name: str) -> Layout:
    spec = tomllib.loads((ROOT / "variants" / name / "map-anchors.toml").read_text())
    graph = province_graph(SETUPS[name])
    ids = sorted(graph.kinds)
    anchors = _anchors(name, spec, graph)
    projection = spec.get("projection", {})
    crossings = {frozenset(c["between"]): c for c in spec.get("crossings", [])}
    apart = {pair for pair, c in crossings.items() if not c.get("touch", False)}
    may_touch = {p: frozenset(q for q in graph.adjacent.get(p, ()) if frozenset((p, q)) not in apart) for p in ids}
    waypoints = {
        frozenset(k.split("-")): [_project(projection, w) for w in v] for k, v in spec.get("waypoints", {}).items()
    }
    spines = {
        p: [[_project(projection, w) for w in line] for line in (v if isinstance(v[0][0], list) else [v])]
        for p, v in spec.get("spines", {}).items()
    }
    _fit(spec, anchors, [line for lines in spines.values() for line in lines] + list(waypoints.values()))
    for p, lines in spines.items():
        anchors[p] = [line[0] for line in lines]  # a province with spines grows from the whole lines
    corridors: list[tuple[str, list[Point], float, frozenset[str] | None]] = [
        (p, line, 0.0, None) for p, ls in spines.items() for line in ls
    ]
    for p in ids:
        for q in sorted(graph.adjacent.get(p, ())):
            pair = frozenset((p, q))
            if q <= p or pair in apart:
                continue
            via = list(waypoints.get(pair, []))
            a, b = min(((a, b) for a in anchors[p] for b in anchors[q]), key=lambda ab: math.dist(*ab))
            if via and math.dist(a, via[0]) > math.dist(b, via[0]):
                via.reverse()
            (a, offset_a), (b, offset_b) = _ends(p, q, anchors, spines, via)
            first, second = split_path([a, *via, b])
            corridors += [(p, first, offset_a, pair), (q, second, offset_b, pair)]
    return Layout(spec, graph, ids, anchors, may_touch, crossings, corridors)


@dataclass
class Attempt:
    shapes: dict[str, BaseGeometry]
    gaps: BaseGeometry  # empty cells inside land masses, drawn as background land
    issues: list[str]
    short: dict[frozenset[str], int]  # adjacent pairs with a short border -> cell sides shared


def attempt(plan: Layout, widened: set[frozenset[str]]) -> Attempt:
    spec, graph, ids = plan.spec, plan.graph, plan.ids
    corridors = [
        (p, line, offset, WIDE_REACH if pair in widened else CORRIDOR_REACH) for p, line, offset, pair in plan.corridors
    ]
    raster = grow(
        spec["width"], spec["height"], spec["cell"], ids, plan.anchors, plan.may_touch, corridors, spec.get("weights", {}), spec.get("radius", {})
    )
    raw, empty = region_polygons(raster, len(ids))
    shapes = dict(zip(ids, simplify(raw, empty, spec.get("simplify", 1.5 * spec["cell"]))))
    issues = problems(shapes, graph.adjacent, set(plan.crossings))
    issues += [f"{p}: empty shape" for p in ids if shapes[p].is_empty]
    short = {}
    touched = contacts(raster)
    for p in ids:
        for q in graph.adjacent.get(p, ()):
            pair = frozenset((p, q))
            n = touched.get((ids.index(min(p, q)), ids.index(max(p, q))), 0)
            if q > p and pair not in plan.crossings and n < SHORT_BORDER:
                short[pair] = n
    lakes = set(spec.get("lakes", []))
    watery = [graph.kinds[p] == "sea" or p in lakes for p in ids]
    gaps = land_gaps(raster, watery, [shapes[p] for p in ids if graph.kinds[p] == "sea"])
    return Attempt(shapes, gaps, issues, short)


def build(name: str) -> tuple[dict[str, Any], list[str], list[str]]:
    """The drawing; if some borders come out short, one more try with their corridors widened."""
    plan = layout(name)
    best = attempt(plan, set())
    if best.short:
        retry = attempt(plan, set(best.short))
        if len(retry.issues) <= len(best.issues) and len(retry.short) < len(best.short):
            best = retry
    notes = [f"{'-'.join(sorted(pair))}: short border ({n} cell sides)" for pair, n in sorted(best.short.items(), key=lambda i: sorted(i[0]))]
    return drawing(name, plan, best.shapes, best.gaps), best.issues, notes


def drawing(name: str, plan: Layout, shapes: dict[str, BaseGeometry], gaps: BaseGeometry) -> dict[str, Any]:
    graph = plan.graph
    scale = plan.spec["width"] / 1000  # the renderer's type reads at 1,000 px: sizes grow with the width
    provinces: dict[str, Any] = {}
    placed = place_provinces({pid: shapes[pid] for pid in plan.ids}, graph.centres, scale)
    boxes = {pid: label_box(*anchors["label"], scale) for pid, anchors in placed.items()}
    for pid in plan.ids:
        shape = shapes[pid]
        if shape.is_empty:
            continue
        entry: dict[str, Any] = {"kind": graph.kinds[pid], "shape": rings_json(shape)}
        entry.update(placed[pid])
        if graph.kinds[pid] == "sea" and (again := more_labels(shape, entry["label"], scale)):
            entry["more_labels"] = again
        if pid in graph.coasts:
            taken = [ShapelyPoint(*entry[k]) for k in ("unit", "label", "centre") if k in entry]
            coasts = {}
            crowd = unary_union([b for b in boxes.values() if b.distance(shape) < 40 * scale])  # its own label too
            for coast, reached in sorted(graph.coasts[pid].items()):
                facing = [shapes[q] for q in sorted(reached) if graph.kinds[q] == "sea"] or [shapes[q] for q in reached]
                coasts[coast] = coast_anchors(shape, facing, taken, scale, crowd)
                taken.append(ShapelyPoint(*coasts[coast]["unit"]))
            entry["coasts"] = coasts
        taken_points = [entry[k] for k in ("unit", "label", "centre") if k in entry]
        taken_points += [c[k] for c in entry.get("coasts", {}).values() for k in ("unit", "label")]
        if graph.kinds[pid] != "impassable":
            name_label = name_anchor(shape, graph.names[pid], [ShapelyPoint(*xy) for xy in taken_points], scale)
            if name_label is not None:
                entry["name_label"] = name_label
        provinces[pid] = entry
    crossing_out = []
    for pair, c in sorted(plan.crossings.items(), key=lambda item: sorted(item[0])):
        a, b = sorted(pair)
        crossing_out.append({"between": [a, b], "kind": c["kind"], "line": crossing_line(shapes[a], shapes[b])})
    out: dict[str, Any] = {
        "format": 1,
        "variant": name,
        "width": plan.spec["width"],
        "height": plan.spec["height"],
        "provinces": provinces,
        "crossings": crossing_out,
    }
    if not gaps.is_empty:
        out["background"] = {"land": rings_json(gaps)}
    return out


def main(argv: list[str]) -> int:
    names = list(SETUPS) if argv[1:2] == ["all"] else argv[1:2]
    if not names or names[0] not in SETUPS:
        print(__doc__)
        return 2
    failed = 0
    for name in names:
        started = time.perf_counter()
        data, issues, notes = build(name)
        if "--check-only" not in argv:
            path = ROOT / "variants" / name / "map.json"
            path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        took = time.perf_counter() - started
        print(f"{name}: {len(data['provinces'])} provinces, {len(data['crossings'])} crossings, {took:.1f} s")
        for line in issues:
            print("  FAIL", line)
        for line in notes:
            print("  note", line)
        failed += bool(issues)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
