"""The map: provinces, coasts, borders per unit type, supply centres, aliases.

A *location* is a string: a province id (`PAR`) or, for a province with several
coasts, `PROV/COAST` (`SPA/NC`). Armies always stand on the province; fleets
stand on a coast of a multi-coast province.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from enum import Enum


class Terrain(str, Enum):
    LAND = "land"
    COAST = "coast"
    SEA = "sea"
    IMPASSABLE = "impassable"


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    terrain: Terrain
    centre: bool = False
    coasts: tuple[str, ...] = ()  # coast locations ("SPA/NC", ...) when several
    island: bool = False  # armies enter as land, fleets move and convoy as at sea
    standing_army: bool = False
    clockwise: tuple[str, ...] = ()  # neighbouring provinces, clockwise
    xy: tuple[float, float] | None = None
    group: str | None = None
    no_attack_before: str | None = None  # a phase: moves into it are illegal until then
    rules_name: str | None = None  # the name the variant's rules give it, when not `name`: never a trap

    @property
    def convoy_water(self) -> bool:
        """A fleet here may convoy."""
        return self.terrain is Terrain.SEA or self.island


_MEMO_LIMIT = 50_000
_NOWHERE: frozenset[str] = frozenset()


class MapError(ValueError):
    """The map data is inconsistent: an unknown id or a one-sided border."""


def province_of(location: str) -> str:
    """`SPA/NC` -> `SPA`; a province id stays as it is. (Called very often: kept cheap.)"""
    slash = location.find("/")
    return location if slash < 0 else location[:slash]


def normalize_name(text: str) -> str:
    """The key aliases are matched on: lower case, letters and digits only."""
    return re.sub(r"[^0-9a-z]", "", text.lower())


def name_words(text: str) -> tuple[str, ...]:
    """An alias as the words a player types: `St. Petersburg` -> ("st", "petersburg")."""
    return tuple(re.findall(r"[0-9a-z]+", text.lower()))


@dataclass
class GameMap:
    provinces: dict[str, Province]
    army_borders: dict[str, frozenset[str]]  # province -> provinces
    fleet_borders: dict[str, frozenset[str]]  # location -> locations
    aliases: dict[str, str]  # normalized alias -> location
    word_aliases: dict[tuple[str, ...], str] = field(default_factory=dict)  # alias words -> location
    _fleet_province_borders: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    _distances: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict, repr=False)
    _prefixes: dict[tuple[str, ...], str] | None = field(default=None, repr=False)
    _sea_routes: dict[tuple[str, str], bool] = field(default_factory=dict, repr=False)
    _neighbours: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    # Values that depend on this map and their key alone (parsed orders and units by
    # text, legal orders by order and the units they name), keyed by a tuple whose first
    # item says what it is: immutable, so shared safely; bounded by `remember`.
    memo: dict[Hashable, object] = field(default_factory=dict, repr=False)
    parsed: dict[str, object] = field(default_factory=dict, repr=False)  # order text -> parsed order
    convoy_waters: frozenset[str] = field(default=frozenset(), repr=False)  # provinces a fleet may convoy in

    def remember(self, key: Hashable, value: object) -> None:
        if len(self.memo) >= _MEMO_LIMIT:
            self.memo.clear()
        self.memo[key] = value

    def remember_parsed(self, text: str, order: object) -> None:
        if len(self.parsed) >= _MEMO_LIMIT:
            self.parsed.clear()
        self.parsed[text] = order

    def forget(self) -> None:
        """Drop everything remembered (the benchmark starts cold with it)."""
        self.memo.clear()
        self.parsed.clear()

    def __post_init__(self) -> None:
        self._fleet_province_borders = {
            location: frozenset(province_of(other) for other in others)
            for location, others in self.fleet_borders.items()
        }
        self.convoy_waters = frozenset(p.id for p in self.provinces.values() if p.convoy_water)

    # -- names -------------------------------------------------------------
    def lookup(self, text: str) -> str | None:
        """The location a player's name for it means, or None."""
        return self.aliases.get(normalize_name(text))

    def name_prefixes(self) -> dict[tuple[str, ...], str]:
        """Unambiguous leading words (two or more) of multi-word names: `north atlantic`."""
        if self._prefixes is None:
            found: dict[tuple[str, ...], set[str]] = {}
            for words, location in self.word_aliases.items():
                for n in range(2, len(words)):
                    found.setdefault(words[:n], set()).add(location)
            self._prefixes = {
                w: next(iter(locs)) for w, locs in found.items() if len(locs) == 1 and w not in self.word_aliases
            }
        return self._prefixes

    def name(self, location: str) -> str:
        province = self.provinces[province_of(location)]
        if "/" in location:
            return f"{province.name} ({location.split('/', 1)[1].lower()})"
        return province.name

    def suggest(self, text: str) -> str | None:
        """The closest known name to a misspelt one, for 'did you mean'."""
        import difflib

        key = normalize_name(text)
        if not key:
            return None
        names = {normalize_name(p.name): p.name for p in self.provinces.values()}
        match = difflib.get_close_matches(key, list(names) + list(self.aliases), n=1, cutoff=0.7)
        if not match:
            return None
        if match[0] in names:
            return names[match[0]]
        return self.name(self.aliases[match[0]])

    # -- geometry ----------------------------------------------------------
    def is_multi_coast(self, province: str) -> bool:
        return bool(self.provinces[province].coasts)

    def army_can_move(self, source: str, target: str) -> bool:
        if "/" in target:
            target = province_of(target)
        return target in self.army_borders.get(province_of(source) if "/" in source else source, ())

    def fleet_can_move(self, source: str, target: str) -> bool:
        return target in self.fleet_borders.get(source, ())

    def fleet_reaches_province(self, source: str, province: str) -> bool:
        """A fleet at `source` can move to some coast of `province` (enough to support there)."""
        return province in self._fleet_province_borders.get(source, ())

    def fleet_province_reach(self, source: str) -> frozenset[str]:
        """The provinces a fleet at `source` can move to some coast of."""
        return self._fleet_province_borders.get(source, _NOWHERE)

    def fleet_targets_in(self, source: str, province: str) -> list[str]:
        """The locations of `province` a fleet at `source` can move to."""
        return [loc for loc in self.fleet_borders.get(source, ()) if province_of(loc) == province]

    def can_move(self, unit_type: str, source: str, target: str) -> bool:
        if unit_type == "A":
            return self.army_can_move(source, target)
        return self.fleet_can_move(source, target)

    def can_reach_province(self, unit_type: str, source: str, province: str) -> bool:
        if unit_type == "A":
            return province in self.army_borders.get(province_of(source), ())
        return self.fleet_reaches_province(source, province)

    def is_coastal(self, province: str) -> bool:
        prov = self.provinces[province]
        return prov.terrain is Terrain.COAST or prov.island

    def neighbours(self, province: str) -> frozenset[str]:
        """Every province bordering this one, by land or by sea."""
        known = self._neighbours.get(province)
        if known is None:
            known = self._neighbours[province] = self._find_neighbours(province)
        return known

    def _find_neighbours(self, province: str) -> frozenset[str]:
        result = set(self.army_borders.get(province, ()))
        prov = self.provinces[province]
        for loc in prov.coasts or (province,):
            result |= self._fleet_province_borders.get(loc, frozenset())
        result.discard(province)
        return frozenset(result)

    def sea_route_exists(self, source: str, target: str) -> bool:
        """Some chain of convoy waters links two coastal provinces (ignoring units)."""
        key = (source, target)
        known = self._sea_routes.get(key)
        if known is None:
            known = self._sea_routes[key] = self._find_sea_route(source, target)
        return known

    def _find_sea_route(self, source: str, target: str) -> bool:
        start = [p for p in self.neighbours(source) if self.provinces[p].convoy_water]
        seen = set(start)
        queue = deque(start)
        while queue:
            sea = queue.popleft()
            for nxt in self.neighbours(sea):
                if nxt == target:
                    return True
                if nxt not in seen and self.provinces[nxt].convoy_water:
                    seen.add(nxt)
                    queue.append(nxt)
        return False

    def distances_from(self, sources: frozenset[str], mode: str) -> dict[str, int]:
        """Breadth-first distance (in moves) from a set of provinces to every location.

        mode "any": armies and fleets may cross land and sea alike (2023 rules).
        mode "A": an army's route, which may cross water (convoys count as moves).
        mode "F": a fleet's route over fleet borders only, per coast.
        """
        key = (",".join(sorted(sources)), mode)
        cached = self._distances.get(key)
        if cached is not None:
            return cached
        if mode == "F":
            graph = {loc: others for loc, others in self.fleet_borders.items()}
            starts = [loc for loc in graph if province_of(loc) in sources]
        else:
            graph = {p: self.neighbours(p) for p in self.provinces}
            starts = [p for p in sources]
        dist = {s: 0 for s in starts}
        queue = deque(starts)
        while queue:
            here = queue.popleft()
            for nxt in graph.get(here, ()):
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        self._distances[key] = dist
        return dist


def build_map(
    provinces: list[Province],
    army: dict[str, list[str]],
    fleet: dict[str, list[str]],
    aliases: dict[str, list[str]],
) -> GameMap:
    """Check and assemble a map. Refuses unknown ids and one-sided borders."""
    by_id = {p.id: p for p in provinces}
    locations = set(by_id)
    for p in provinces:
        locations.update(p.coasts)
    problems: list[str] = []

    def check_symmetric(kind: str, borders: dict[str, list[str]], known: set[str]) -> None:
        for source, targets in borders.items():
            if source not in known:
                problems.append(f"{kind} border from unknown location {source}")
                continue
            for target in targets:
                if target not in known:
                    problems.append(f"{kind} border {source}-{target}: unknown location {target}")
                elif source not in borders.get(target, ()):
                    problems.append(f"{kind} border {source}-{target} is not written from {target}")

    check_symmetric("army", army, set(by_id))
    check_symmetric("fleet", fleet, locations)
    for p in provinces:
        if p.terrain is Terrain.SEA and army.get(p.id) and not p.island:
            problems.append(f"army border from sea {p.id}")
        if p.terrain is Terrain.LAND and fleet.get(p.id):
            problems.append(f"fleet border from land {p.id}")
        if p.coasts and fleet.get(p.id):
            problems.append(f"{p.id} has coasts: fleet borders belong to its coasts")
    alias_table: dict[str, str] = {}
    word_table: dict[tuple[str, ...], str] = {}
    for location, names in aliases.items():
        if location not in locations:
            problems.append(f"alias for unknown location {location}")
            continue
        for alias in names:
            key = normalize_name(alias)
            if not key:
                continue
            if alias_table.get(key, location) != location:
                problems.append(f"alias {alias!r} names both {alias_table[key]} and {location}")
            alias_table[key] = location
            word_table.setdefault(name_words(alias), location)
    if problems:
        raise MapError("; ".join(problems))
    return GameMap(
        provinces=by_id,
        army_borders={k: frozenset(v) for k, v in army.items()},
        fleet_borders={k: frozenset(v) for k, v in fleet.items()},
        aliases=alias_table,
        word_aliases=word_table,
    )
