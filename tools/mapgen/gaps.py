"""The thin gaps between provinces that may not touch, where they cut through a land mass.

Left empty they show the water colour and read as a river or a strait that is not there;
drawn as background land (the format's `background.land`, under the provinces) they read
as a thicker border. Gaps next to a sea, or next to a province listed as a lake (Small
World's Caspian), stay water.
"""

from __future__ import annotations

import shapely
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from .grow import Raster

REACH = 2  # cells: an empty cell this close to a sea (or a lake) stays water


def land_gaps(raster: Raster, watery: list[bool], seas: list[BaseGeometry]) -> BaseGeometry:
    """Empty cells with only land around them (within REACH cells), slightly widened so
    that they fill under the simplified province outlines, minus the seas."""
    nx, ny, s, lab = raster.nx, raster.ny, raster.cell, raster.labels
    cells: list[Polygon] = []
    for j in range(ny):
        for i in range(nx):
            if lab[j * nx + i] != -1:
                continue
            near = [
                lab[jj * nx + ii]
                for jj in range(max(0, j - REACH), min(ny, j + REACH + 1))
                for ii in range(max(0, i - REACH), min(nx, i + REACH + 1))
            ]
            owners = {q for q in near if q >= 0}
            if owners and not any(watery[q] for q in owners):
                cells.append(box(i * s, j * s, (i + 1) * s, (j + 1) * s))
    if not cells:
        return Polygon()
    gaps = shapely.union_all(cells).buffer(s / 2, join_style="mitre")
    water = shapely.union_all(seas) if seas else Polygon()
    return shapely.make_valid(gaps.difference(water).simplify(s / 4))
