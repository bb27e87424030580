"""The adjacency rules of docs' map format, applied to generated shapes (diagnostics for the generator)."""

from __future__ import annotations

from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

MIN_BORDER = 4.0


def problems(
    shapes: dict[str, BaseGeometry], adjacent: dict[str, frozenset[str]], crossings: set[frozenset[str]]
) -> list[str]:
    out = []
    ids = sorted(shapes)
    geoms = [shapes[p] for p in ids]
    for p, g in zip(ids, geoms):
        if not g.is_valid:
            out.append(f"{p}: invalid shape")
    tree = STRtree(geoms)
    touching: dict[frozenset[str], float] = {}
    for k, p in enumerate(ids):
        for m in tree.query(geoms[k]):
            q = ids[int(m)]
            if q <= p:
                continue
            shared = geoms[k].intersection(geoms[int(m)])
            if shared.area > 0.5:
                out.append(f"{p}-{q}: overlap {shared.area:.1f}")
            if not shared.is_empty:
                touching[frozenset((p, q))] = shared.length
    for p in ids:
        for q in adjacent.get(p, ()):
            if q <= p or q not in shapes:
                continue
            pair = frozenset((p, q))
            if pair not in crossings and touching.get(pair, 0.0) < MIN_BORDER:
                out.append(f"{p}-{q}: adjacent, border {touching.get(pair, 0.0):.1f}")
    for pair, length in touching.items():
        p, q = sorted(pair)
        if q not in adjacent.get(p, ()) and pair not in crossings:
            out.append(f"{p}-{q}: NOT adjacent but touch (length {length:.1f})")
    for pair in crossings:
        p, q = sorted(pair)
        if q not in adjacent.get(p, ()):
            out.append(f"{p}-{q}: crossing between non-adjacent provinces")
    return out
