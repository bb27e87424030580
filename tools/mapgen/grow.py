"""Grow province regions on a raster from their anchors and half-edges.

Every province starts at its anchor(s); for every pair of adjacent provinces that is
not joined by a crossing, each side also gets a cheap corridor from its anchor to the
midpoint of the pair's path, so the two regions are sure to meet there. All regions
then grow at once, nearest first (Euclidean distance from the seed a cell grew from),
and a cell may be claimed by P only if none of its eight neighbours belongs to a
province that may not touch P. Cells nobody may claim stay empty (-1).
"""

from __future__ import annotations

import heapq
import math
from array import array
from dataclasses import dataclass

Point = tuple[float, float]

CORRIDOR_COST = 0.02  # cost per cell along a province's own corridor (other cells cost 1)
ANCHOR_RADIUS = 2.5  # cells claimed around an anchor from the start
CORRIDOR_REACH = 1.3  # half-width of a corridor, in cells
WIDE_REACH = 2.6  # half-width of a widened corridor (pairs whose border came out short)


@dataclass(frozen=True)
class Raster:
    nx: int
    ny: int
    cell: float
    labels: array  # type: ignore[type-arg]  # row-major, -1 = empty

    def at(self, i: int, j: int) -> int:
        return int(self.labels[j * self.nx + i])


def _cells_near_polyline(path: list[Point], cell: float, nx: int, ny: int, reach: float) -> list[tuple[int, float]]:
    """Cells whose centre lies within `reach` cells of the polyline, with the distance along it."""
    found: dict[int, float] = {}
    along = 0.0
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        ax, ay, bx, by = x0 / cell, y0 / cell, x1 / cell, y1 / cell
        length = math.hypot(bx - ax, by - ay)
        lo_i = max(0, int(min(ax, bx) - reach - 1))
        hi_i = min(nx - 1, int(max(ax, bx) + reach + 1))
        lo_j = max(0, int(min(ay, by) - reach - 1))
        hi_j = min(ny - 1, int(max(ay, by) + reach + 1))
        for j in range(lo_j, hi_j + 1):
            cy = j + 0.5
            for i in range(lo_i, hi_i + 1):
                cx = i + 0.5
                if length == 0:
                    t = 0.0
                else:
                    t = max(0.0, min(1.0, ((cx - ax) * (bx - ax) + (cy - ay) * (by - ay)) / (length * length)))
                px, py = ax + t * (bx - ax), ay + t * (by - ay)
                if math.hypot(cx - px, cy - py) <= reach:
                    k = j * nx + i
                    d = along + t * length
                    if k not in found or d < found[k]:
                        found[k] = d
        along += length
    return sorted(found.items(), key=lambda item: item[1])


def split_path(path: list[Point]) -> tuple[list[Point], list[Point]]:
    """The two halves of a polyline, cut at half its length (second half reversed)."""
    lengths = [math.dist(a, b) for a, b in zip(path, path[1:])]
    half = sum(lengths) / 2
    walked = 0.0
    for k, seg in enumerate(lengths):
        if walked + seg >= half and seg > 0:
            t = (half - walked) / seg
            (x0, y0), (x1, y1) = path[k], path[k + 1]
            mid = (x0 + t * (x1 - x0), y0 + t * (y1 - y0))
            return [*path[: k + 1], mid], [*reversed(path[k + 1 :]), mid]
        walked += seg
    return [path[0]], [path[-1]]


def grow(
    width: float,
    height: float,
    cell: float,
    ids: list[str],
    anchors: dict[str, list[Point]],
    may_touch: dict[str, frozenset[str]],
    corridors: list[tuple[str, list[Point], float, float]],
    weights: dict[str, float],
    radius: dict[str, float] | None = None,
) -> Raster:
    nx, ny = math.ceil(width / cell), math.ceil(height / cell)
    index = {p: k for k, p in enumerate(ids)}
    allowed = [frozenset(index[q] for q in may_touch[p] if q in index) | {index[p]} for p in ids]
    labels = array("i", [-1]) * (nx * ny)
    heap: list[tuple[float, int, int, int, float, int]] = []  # prio, cell, province, origin, base, seed kind

    def push_seed(p: int, cells: list[tuple[int, float]], offset: float = 0.0) -> None:
        for k, along in cells:
            base = (along + offset) * CORRIDOR_COST
            heap.append((base, k, p, k, base, 1))

    for p in ids:
        for x, y in anchors[p]:
            ring = _cells_near_polyline([(x, y), (x, y)], cell, nx, ny, ANCHOR_RADIUS)
            centre = min(nx - 1, int(x / cell)) + min(ny - 1, int(y / cell)) * nx
            heap.append((0.0, centre, index[p], centre, 0.0, 2))
            push_seed(index[p], ring)
    for p, path, offset, reach in corridors:
        push_seed(index[p], _cells_near_polyline(path, cell, nx, ny, reach), offset / cell)
    heapq.heapify(heap)

    weight = [weights.get(p, 1.0) for p in ids]
    # A province with a radius (an island) claims no cell farther than that from its anchors.
    reach = [(radius or {}).get(p, math.inf) / cell for p in ids]
    centres = [[(x / cell, y / cell) for x, y in anchors[p]] for p in ids]
    while heap:
        prio, k, p, origin, base, seed = heapq.heappop(heap)
        if labels[k] != -1:
            continue
        i, j = k % nx, k // nx
        ok = True
        for dj in (-1, 0, 1):
            jj = j + dj
            if jj < 0 or jj >= ny:
                continue
            row = jj * nx
            for di in (-1, 0, 1):
                ii = i + di
                if 0 <= ii < nx:
                    q = labels[row + ii]
                    if q >= 0 and q not in allowed[p]:
                        ok = False
                        break
            if not ok:
                break
        if not ok:
            continue
        if reach[p] != math.inf and min(math.hypot(i + 0.5 - cx, j + 0.5 - cy) for cx, cy in centres[p]) > reach[p]:
            continue
        if seed == 1:
            connected = (
                (i > 0 and labels[k - 1] == p)
                or (i < nx - 1 and labels[k + 1] == p)
                or (j > 0 and labels[k - nx] == p)
                or (j < ny - 1 and labels[k + nx] == p)
            )
            if not connected:
                continue
        labels[k] = p
        oi, oj = origin % nx, origin // nx
        for nk, ni, nj in ((k - 1, i - 1, j), (k + 1, i + 1, j), (k - nx, i, j - 1), (k + nx, i, j + 1)):
            if 0 <= ni < nx and 0 <= nj < ny and labels[nk] == -1:
                d = math.hypot(ni - oi, nj - oj) * weight[p]
                heapq.heappush(heap, (base + d, nk, p, origin, base, 0))
    return Raster(nx, ny, cell, labels)


def contacts(raster: Raster) -> dict[tuple[int, int], int]:
    """Number of cell sides shared by each pair of labels (both >= 0), key (low, high)."""
    counts: dict[tuple[int, int], int] = {}
    nx, ny, lab = raster.nx, raster.ny, raster.labels
    for j in range(ny):
        for i in range(nx):
            a = lab[j * nx + i]
            if a < 0:
                continue
            for b in (lab[j * nx + i + 1] if i + 1 < nx else -1, lab[(j + 1) * nx + i] if j + 1 < ny else -1):
                if b >= 0 and b != a:
                    key = (a, b) if a < b else (b, a)
                    counts[key] = counts.get(key, 0) + 1
    return counts
