"""Raster regions -> simplified polygons that keep shared borders identical on both sides."""

from __future__ import annotations

import shapely
from shapely.geometry import MultiPolygon, Polygon, box
from shapely.geometry.base import BaseGeometry

from .grow import Raster


def region_polygons(raster: Raster, count: int) -> tuple[list[BaseGeometry], BaseGeometry]:
    """One (multi)polygon per label 0..count-1, and the empty cells' polygon."""
    runs: list[list[Polygon]] = [[] for _ in range(count + 1)]  # last = empty cells
    nx, ny, s, lab = raster.nx, raster.ny, raster.cell, raster.labels
    for j in range(ny):
        row = j * nx
        start = 0
        for i in range(1, nx + 1):
            if i == nx or lab[row + i] != lab[row + start]:
                label = lab[row + start]
                runs[label if label >= 0 else count].append(box(start * s, j * s, i * s, (j + 1) * s))
                start = i
    shapes = [shapely.union_all(r) if r else Polygon() for r in runs]
    return shapes[:count], shapes[count]


def simplify(shapes: list[BaseGeometry], empty: BaseGeometry, tolerance: float) -> list[BaseGeometry]:
    """Simplify the coverage (provinces plus the empty cells), shared edges once for both sides."""
    coverage = [*shapes, empty] if not empty.is_empty else list(shapes)
    simplified = shapely.coverage_simplify(coverage, tolerance, simplify_boundary=False)
    return [shapely.make_valid(g) if not g.is_valid else g for g in simplified[: len(shapes)]]


def polygons_of(geometry: BaseGeometry) -> list[Polygon]:
    if isinstance(geometry, Polygon):
        return [geometry] if not geometry.is_empty else []
    if isinstance(geometry, MultiPolygon):
        return list(geometry.geoms)
    return [g for part in getattr(geometry, "geoms", []) for g in polygons_of(part)]


def rings_json(geometry: BaseGeometry) -> list[list[list[list[float]]]]:
    """The format's shape: list of polygons, each a list of rings, each unclosed [x, y] points."""
    out = []
    for polygon in polygons_of(geometry):
        rings = [polygon.exterior, *polygon.interiors]
        out.append([[[_num(x), _num(y)] for x, y in list(ring.coords)[:-1]] for ring in rings])
    return out


def _num(value: float) -> float:
    rounded = round(value, 1)
    return int(rounded) if rounded == int(rounded) else rounded
