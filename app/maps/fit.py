"""Where a province's full name fits: below or above its abbreviation, inside its shape,
clear of the unit and centre anchors. Used when the drawing gives no `name_label`."""

from __future__ import annotations

from .drawing import Point, ProvinceDrawing, Ring

CHAR_WIDTH = 0.6  # DejaVu Sans, average advance per character, in ems


def _inside(ring: Ring, x: float, y: float) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _covers(drawn: ProvinceDrawing, x: float, y: float) -> bool:
    return any(_inside(poly[0], x, y) and not any(_inside(hole, x, y) for hole in poly[1:]) for poly in drawn.shape)


def _box_inside(drawn: ProvinceDrawing, left: float, right: float, top: float, bottom: float) -> bool:
    steps = max(4, int((right - left) / 6))
    xs = [left + (right - left) * i / steps for i in range(steps + 1)]
    return all(_covers(drawn, x, y) for y in (top, bottom) for x in xs)


def _clear(points: list[tuple[Point, float]], left: float, right: float, top: float, bottom: float) -> bool:
    for (x, y), radius in points:
        nearest_x, nearest_y = min(max(x, left), right), min(max(y, top), bottom)
        if (x - nearest_x) ** 2 + (y - nearest_y) ** 2 < radius**2:
            return False
    return True


def name_spot(drawn: ProvinceDrawing, name: str, font: float, unit_radius: float) -> Point | None:
    """The centre of the full name, or None when it does not fit."""
    if drawn.name_label is not None:
        return drawn.name_label
    width, height = CHAR_WIDTH * font * len(name) + font * 0.4, font * 1.1
    avoid = [(drawn.unit, 1.4 * unit_radius)] + [(c.unit, 1.4 * unit_radius) for c in drawn.coasts.values()]
    avoid += [(c.label, font * 0.9) for c in drawn.coasts.values() if c.label is not None]
    if drawn.centre is not None:
        avoid.append((drawn.centre, font * 0.9))
    x, y0 = drawn.label
    for dy in (1.25 * font, -1.25 * font, 2.3 * font, -2.3 * font):
        y = y0 + dy
        box = (x - width / 2, x + width / 2, y - height / 2, y + height / 2)
        if _box_inside(drawn, *box) and _clear(avoid, *box):
            return x, y
    return None
