"""The adjacency facts of a variant, read from the engine's own loader (build time only)."""

from __future__ import annotations

from dataclasses import dataclass

from app.variants import load_variant


@dataclass(frozen=True)
class Graph:
    kinds: dict[str, str]  # province -> "land" | "coast" | "sea" | "impassable"
    adjacent: dict[str, frozenset[str]]  # province -> provinces adjacent by any army or fleet border
    coasts: dict[str, dict[str, frozenset[str]]]  # province -> coast -> provinces its fleets reach
    centres: frozenset[str]  # centres in any set-up
    names: dict[str, str]  # province -> full name


def province_graph(variant_names: list[str]) -> Graph:
    """The union of the named set-ups' maps (they share one drawing)."""
    kinds: dict[str, str] = {}
    adjacent: dict[str, set[str]] = {}
    coasts: dict[str, dict[str, frozenset[str]]] = {}
    centres: set[str] = set()
    names: dict[str, str] = {}
    for name in variant_names:
        game_map = load_variant(name).map
        for pid, province in game_map.provinces.items():
            kinds[pid] = province.terrain.value
            names[pid] = province.name
            adjacent.setdefault(pid, set()).update(game_map.army_borders.get(pid, ()))
            if province.centre:
                centres.add(pid)
        for location, others in game_map.fleet_borders.items():
            pid, _, coast = location.partition("/")
            reached = {other.split("/")[0] for other in others}
            adjacent.setdefault(pid, set()).update(reached)
            for other in reached:
                adjacent.setdefault(other, set()).add(pid)
            if coast:
                coasts.setdefault(pid, {})[coast] = frozenset(reached)
    return Graph(kinds, {k: frozenset(v - {k}) for k, v in adjacent.items()}, coasts, frozenset(centres), names)
