"""A map drawing (`variants/<name>/map.json`, docs in docs/maps/README.md): typed, read once.

The drawing is geography only: province shapes, where labels, units and centres go,
and the crossings drawn across water. Colours and everything else are the renderer's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from app.variants import UnknownVariant, variant_folder

Point = tuple[float, float]
Ring = tuple[Point, ...]
Polygon = tuple[Ring, ...]  # outer ring first, then holes

KINDS = ("land", "coast", "sea", "impassable")


class DrawingError(ValueError):
    """A drawing file that is missing or not in the documented format."""


@dataclass(frozen=True)
class CoastDrawing:
    unit: Point
    label: Point | None


@dataclass(frozen=True)
class ProvinceDrawing:
    id: str
    kind: str
    shape: tuple[Polygon, ...]
    label: Point
    unit: Point
    name_label: Point | None = None
    centre: Point | None = None
    more_labels: tuple[Point, ...] = ()  # the abbreviation again, on other parts (a sea on both sides of a world map)
    coasts: dict[str, CoastDrawing] = field(default_factory=dict)

    @property
    def is_water(self) -> bool:
        return self.kind == "sea"


@dataclass(frozen=True)
class Crossing:
    between: tuple[str, str]
    kind: str
    line: tuple[Point, ...]


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one value per loaded file
class Drawing:
    variant: str
    width: float
    height: float
    provinces: dict[str, ProvinceDrawing]
    crossings: tuple[Crossing, ...] = ()
    background_land: tuple[Polygon, ...] = ()

    def anchor(self, location: str) -> Point:
        """Where a unit at `location` (`PAR`, `SPA/SC`) stands."""
        province, _, coast = location.upper().partition("/")
        drawn = self.provinces[province]
        if coast and coast in drawn.coasts:
            return drawn.coasts[coast].unit
        return drawn.unit


def drawing_path(variant_name: str) -> Path | None:
    """`variants/<folder>/map.json` of a variant name: a folder's set-ups (`smallworld7`,
    `smallworld8`) share its drawing. None for a name that is no map variant (dod3)."""
    try:
        return variant_folder(variant_name) / "map.json"
    except UnknownVariant:
        return None


def has_drawing(variant_name: str) -> bool:
    """Whether the variant has a map to draw (Days of Decision III has none)."""
    path = drawing_path(variant_name)
    return path is not None and path.is_file()


@cache
def load_drawing(variant_name: str) -> Drawing:
    path = drawing_path(variant_name)
    if path is None or not path.is_file():
        where = f"expected variants/{path.parent.name}/map.json" if path is not None else "not a map variant"
        raise DrawingError(f"no map drawing for {variant_name!r} ({where})")
    with path.open(encoding="utf-8") as handle:
        drawing = drawing_from_data(json.load(handle))
    if drawing.variant != path.parent.name:  # a drawing copied from another folder would draw the wrong map
        raise DrawingError(f"variants/{path.parent.name}/map.json is drawn for {drawing.variant or 'no variant'!r}, "
                           f"not {path.parent.name!r} (its \"variant\")")
    return drawing


def _point(value: Any, what: str) -> Point:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value)):
        raise DrawingError(f"{what}: expected [x, y], got {value!r}")
    return float(value[0]), float(value[1])


def _polygon(value: Any, what: str) -> Polygon:
    if not isinstance(value, list) or not value:
        raise DrawingError(f"{what}: a polygon is a non-empty list of rings")
    rings = []
    for ring in value:
        if not isinstance(ring, list) or len(ring) < 3:
            raise DrawingError(f"{what}: a ring needs at least three points")
        rings.append(tuple(_point(p, what) for p in ring))
    return tuple(rings)


def _province(pid: str, info: dict[str, Any]) -> ProvinceDrawing:
    kind = info.get("kind")
    if kind not in KINDS:
        raise DrawingError(f"{pid}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    shape = tuple(_polygon(p, pid) for p in info.get("shape") or [])
    if not shape:
        raise DrawingError(f"{pid}: no shape")
    coasts = {
        str(c).upper(): CoastDrawing(
            _point(ci.get("unit"), f"{pid}/{c} unit"),
            _point(ci["label"], f"{pid}/{c} label") if ci.get("label") is not None else None,
        )
        for c, ci in (info.get("coasts") or {}).items()
    }
    label = _point(info.get("label"), f"{pid} label")
    return ProvinceDrawing(
        id=pid,
        kind=str(kind),
        shape=shape,
        label=label,
        unit=_point(info.get("unit", info.get("label")), f"{pid} unit"),
        name_label=_point(info["name_label"], f"{pid} name_label") if info.get("name_label") is not None else None,
        centre=_point(info["centre"], f"{pid} centre") if info.get("centre") is not None else None,
        more_labels=tuple(_point(p, f"{pid} more_labels") for p in info.get("more_labels") or []),
        coasts=coasts,
    )


def drawing_from_data(data: dict[str, Any]) -> Drawing:
    """A drawing from the parsed JSON of a `map.json` (or a test's own)."""
    if not isinstance(data, dict) or data.get("format") != 1:
        raise DrawingError("a map drawing is a JSON object with \"format\": 1")
    provinces = {str(pid).upper(): _province(str(pid).upper(), info) for pid, info in (data.get("provinces") or {}).items()}
    crossings = tuple(
        Crossing(
            (str(c["between"][0]).upper(), str(c["between"][1]).upper()),
            str(c.get("kind", "passage")),
            tuple(_point(p, "crossing") for p in c["line"]),
        )
        for c in data.get("crossings") or []
    )
    background = data.get("background") or {}
    land = tuple(_polygon(p, "background") for p in background.get("land") or [])
    return Drawing(
        variant=str(data.get("variant", "")),
        width=float(data["width"]),
        height=float(data["height"]),
        provinces=provinces,
        crossings=crossings,
        background_land=land,
    )
