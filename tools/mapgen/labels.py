"""Anchor points inside the province shapes: label, unit, centre, coasts, crossing lines."""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, polylabel, unary_union

from .shapes import polygons_of

# Distances in map units for a drawing 1,000 units wide; the renderer sizes its type and
# markers to read at 1,000 pixels, so a wider drawing scales them (`scale` = width / 1000).
UNIT_GAP = 18.0  # distance kept between the unit anchor and the label
CENTRE_GAP = 14.0  # between the centre marker and the label (and the unit)
ABBR_BOX = (30.0, 12.0)  # width and height of a bold three-letter abbreviation
CENTRE_RADIUS = 8.0  # a centre marker's disc (and a little room)
MORE_LABEL_AREA = 2500.0  # square units: smaller parts (islets) get no second label


def _largest(geometry: BaseGeometry) -> Polygon | None:
    parts = polygons_of(geometry)
    return max(parts, key=lambda p: p.area) if parts else None


def _pole(geometry: BaseGeometry) -> Point | None:
    part = _largest(geometry)
    if part is None or part.area < 1:
        return None
    point = polylabel(part, tolerance=0.5)
    return point if point.within(part) else part.representative_point()


def _away(shape: BaseGeometry, avoid: list[Point], gaps: list[float]) -> Point | None:
    rest = shape
    for point, gap in zip(avoid, gaps):
        rest = rest.difference(point.buffer(gap))
    return _pole(rest)


def _unit_box(unit: Point, scale: float) -> Polygon:
    """Where a unit is drawn (a fleet's hull is wider than an army's disc), scale 1: 27 x 21."""
    w, h = 13.5 * scale, 10.5 * scale
    return Polygon([(unit.x - w, unit.y - h), (unit.x + w, unit.y - h), (unit.x + w, unit.y + h), (unit.x - w, unit.y + h)])


def label_box(x: float, y: float, scale: float) -> Polygon:
    w, h = (ABBR_BOX[0] / 2 + 2) * scale, (ABBR_BOX[1] / 2 + 2) * scale
    return Polygon([(x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)])


def _label_near(shape: BaseGeometry, unit: Point, scale: float, crowd: BaseGeometry) -> Point:
    """The abbreviation's place, clear of `crowd` (the neighbours' units, labels and centres):
    just below (else above) the unit when the text fits there, else the spot nearest the
    unit where the text best fits inside the province, clear of the unit and the crowd."""
    gap = UNIT_GAP * scale

    def fits(x: float, y: float) -> bool:
        box = label_box(x, y, scale)
        return bool(shape.contains(box)) and not box.intersects(crowd)

    for dy in (gap, -gap):
        if fits(unit.x, unit.y + dy):
            return Point(unit.x, unit.y + dy)
    minx, miny, maxx, maxy = shape.bounds
    step = 2.0 * scale
    gx, gy = np.meshgrid(np.arange(minx, maxx + step, step), np.arange(miny, maxy + step, step))
    gx, gy = gx.ravel(), gy.ravel()
    w, h = (ABBR_BOX[0] / 2 + 2) * scale, (ABBR_BOX[1] / 2 + 2) * scale
    boxes = shapely.box(gx - w, gy - h, gx + w, gy + h)
    inside = shapely.contains_xy(shape, gx, gy)
    if not inside.any():
        return unit
    disc = _unit_box(unit, scale)
    outside = shapely.area(shapely.difference(boxes, shape))
    blocked = shapely.area(shapely.intersection(boxes, unary_union([crowd, disc])))
    far = np.maximum(np.hypot(gx - unit.x, gy - unit.y) - gap, 0.0)
    score = np.where(inside, outside + 6.0 * blocked + 0.3 * far * scale, np.inf)
    best = int(np.argmin(score))
    return Point(float(gx[best]), float(gy[best]))


def province_anchors(
    shape: BaseGeometry, is_centre: bool, scale: float = 1.0, unit: Point | None = None, crowd: BaseGeometry | None = None
) -> dict[str, list[float]]:
    """Unit, abbreviation and centre marker of one province; `unit` if already chosen, and
    `crowd` what the neighbours have put near the border (kept clear where there is room)."""
    unit = unit or _pole(shape)
    if unit is None:
        raise ValueError("empty shape")
    crowd = crowd if crowd is not None else Polygon()
    label = _label_near(shape, unit, scale, crowd)
    out = {"unit": _xy(unit), "label": _xy(label)}
    if is_centre:
        gaps = [UNIT_GAP * scale, CENTRE_GAP * scale]
        centre = (
            _away(shape.difference(crowd), [unit, label], gaps)
            or _away(shape, [unit, label], gaps)
            or _away(shape, [unit, label], [gaps[0], gaps[1] / 2])
            or label
        )
        out["centre"] = _xy(centre)
    return out


def place_provinces(shapes: dict[str, BaseGeometry], centres: frozenset[str], scale: float) -> dict[str, dict[str, list[float]]]:
    """Every province's unit, abbreviation and centre, in id order, each clear of what its
    neighbours have placed where there is room."""
    units = {pid: _pole(shape) for pid, shape in shapes.items() if not shape.is_empty}
    marks: dict[str, list[BaseGeometry]] = {
        pid: [_unit_box(unit, scale)] for pid, unit in units.items() if unit is not None
    }
    out = {}
    for pid in sorted(units):
        shape = shapes[pid]
        near = shape.buffer(30 * scale)
        crowd = unary_union([m for other, ms in marks.items() if other != pid for m in ms if m.intersects(near)])
        anchors = province_anchors(shape, pid in centres, scale, units[pid], crowd)
        marks[pid].append(label_box(*anchors["label"], scale))
        if "centre" in anchors:
            marks[pid].append(Point(*anchors["centre"]).buffer(CENTRE_RADIUS * scale))
        out[pid] = anchors
    return out


def more_labels(shape: BaseGeometry, label: list[float], scale: float) -> list[list[float]]:
    """The abbreviation again on each other part of the province big enough to be seen
    (a sea drawn on both sides of a world map): at the part's pole."""
    out = []
    for part in polygons_of(shape):
        if part.contains(Point(*label)) or part.area < MORE_LABEL_AREA * scale * scale:
            continue
        pole = polylabel(part, tolerance=0.5)
        out.append(_xy(pole if pole.within(part) else part.representative_point()))
    return sorted(out)


def coast_anchors(
    shape: BaseGeometry, facing: list[BaseGeometry], taken: list[Point], scale: float = 1.0, crowd: BaseGeometry | None = None
) -> dict[str, list[float]]:
    """Unit and label of one coast: inside the province, near the border with the seas it
    faces, clear of `crowd` (abbreviations, its own too) where there is room."""
    border = shape.boundary.intersection(unary_union(facing).boundary)
    if border.is_empty:
        border = nearest_points(shape, unary_union(facing))[0]
    target = border.interpolate(border.project(border.centroid)) if border.length > 0 else border.centroid
    keep_off = crowd.buffer(11.0 * scale) if crowd is not None and not crowd.is_empty else None
    tries = [(r, g, True) for r in (22.0, 32.0, 45.0) for g in (UNIT_GAP, 10.0)] if keep_off is not None else []
    tries += [(r, g, False) for r in (22.0, 32.0, 45.0, 70.0) for g in (UNIT_GAP, 10.0, 0.0)]
    for radius, gap_units, clear in tries:
        near = shape.intersection(target.buffer(radius * scale))
        gap = gap_units * scale
        rest = near.difference(keep_off) if clear and keep_off is not None else near
        for point in taken:
            rest = rest.difference(point.buffer(gap)) if gap else rest
        unit = _pole(rest)
        if unit is not None:
            busy = crowd.buffer(8.0 * scale) if crowd is not None and not crowd.is_empty else Polygon()
            close = shape.intersection(unit.buffer(24.0 * scale))  # the label stays by its unit
            label = (
                _away(near.difference(busy), [unit, *taken], [10.0 * scale] + [22.0 * scale] * len(taken))
                or _away(close.difference(busy), [unit, *taken], [10.0 * scale] + [22.0 * scale] * len(taken))
                or _away(close.difference(busy), [unit, *taken], [10.0 * scale] * (1 + len(taken)))
                or _away(near, [unit, *taken], [10.0 * scale] + [22.0 * scale] * len(taken))
                or _away(near, [unit, *taken], [10.0 * scale] * (1 + len(taken)))
                or _away(near, [unit], [10.0 * scale])
                or unit
            )
            return {"unit": _xy(unit), "label": _xy(label)}
    raise ValueError("no room for a coast anchor")


def crossing_line(a: BaseGeometry, b: BaseGeometry) -> list[list[float]]:
    """A line from inside a to inside b: across the water, or across their border if they touch."""
    if a.distance(b) == 0:
        border = a.intersection(b)
        middle = border.interpolate(0.5, normalized=True) if border.length > 0 else border.centroid
        ends = []
        for shape in (a, b):
            pole = _pole(shape) or middle
            length = max(middle.distance(pole), 1e-9)
            inside = middle
            for step in (14.0, 10.0, 6.0, 3.0):
                t = min(1.0, step / length)
                candidate = Point(middle.x + (pole.x - middle.x) * t, middle.y + (pole.y - middle.y) * t)
                if candidate.within(shape):
                    inside = candidate
                    break
            ends.append(_xy(inside))
        return ends
    pa, pb = nearest_points(a, b)
    line = LineString([pa, pb])
    if line.length == 0:
        return [_xy(pa), _xy(pb)]
    dx, dy = (pb.x - pa.x) / line.length, (pb.y - pa.y) / line.length
    ends = []
    for point, shape, sign in ((pa, a, -1.0), (pb, b, 1.0)):
        inside = point
        for step in (8.0, 5.0, 3.0, 1.5):
            candidate = Point(point.x + sign * dx * step, point.y + sign * dy * step)
            if candidate.within(shape):
                inside = candidate
                break
        ends.append(_xy(inside))
    return ends


def _xy(point: Point) -> list[float]:
    return [round(point.x, 1), round(point.y, 1)]


CHAR_WIDTH = 5.4  # map units per character of a full name at the renderer's small font (estimate)
NAME_HEIGHT = 11.0
NAME_REACH = 14.0  # farthest a full name may sit from its abbreviation's box


def name_anchor(shape: BaseGeometry, name: str, avoid: list[Point], scale: float = 1.0) -> list[float] | None:
    """Centre of a box that holds the full name inside the shape, clear of the other anchors; or None.

    `avoid` starts with the unit anchor (kept farther away) and the label (the box goes near it).
    """
    width, height = (CHAR_WIDTH * len(name) + 4) * scale, NAME_HEIGHT * scale
    part = _largest(shape)
    if part is None:
        return None
    minx, miny, maxx, maxy = part.bounds
    xs = np.arange(minx + width / 2, maxx - width / 2 + 0.1, 3.0)
    ys = np.arange(miny + height / 2, maxy - height / 2 + 0.1, 3.0)
    if len(xs) == 0 or len(ys) == 0:
        return None
    gx, gy = np.meshgrid(xs, ys)
    gx, gy = gx.ravel(), gy.ravel()
    boxes = shapely.box(gx - width / 2, gy - height / 2, gx + width / 2, gy + height / 2)
    shapely.prepare(part)
    fits = shapely.contains(part, boxes)
    aw, ah = ABBR_BOX[0] * scale / 2, ABBR_BOX[1] * scale / 2
    keep = [
        (point, 14.0 * scale) if k == 0
        else (shapely.box(point.x - aw, point.y - ah, point.x + aw, point.y + ah), 2.0 * scale) if k == 1
        else (point, 9.0 * scale)
        for k, point in enumerate(avoid)
    ]
    clear = [shapely.distance(boxes, thing) >= gap for thing, gap in keep]
    ok = fits & np.logical_and.reduce(clear) if clear else fits
    if len(keep) > 1:  # a name far from its abbreviation reads as another province's
        ok &= shapely.distance(boxes, keep[1][0]) <= NAME_REACH * scale
    if not ok.any():
        return None
    target = avoid[1] if len(avoid) > 1 else part.centroid  # near the abbreviation
    distance = np.hypot(gx - target.x, gy - target.y)
    best = int(np.argmin(np.where(ok, distance, np.inf)))
    return [round(float(gx[best]), 1), round(float(gy[best]), 1)]
