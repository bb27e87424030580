"""A variant as JSON: its summary (powers, rules) and its map (provinces, names, borders).
What `judge variant show --json` prints and what the use cases read as a variant's data."""

from __future__ import annotations

from typing import Any

from .engine.rules import OPTION_NAMES
from .engine.variant import Variant

__all__ = ["summary", "with_map"]


def summary(variant: Variant) -> dict[str, Any]:
    return {
        "name": variant.name,
        "title": variant.title,
        "start_phase": str(variant.start_phase),
        "victory_centres": variant.victory_centres,
        "rules": {name: getattr(variant.rules, name) for name in OPTION_NAMES},
        "powers": [
            {"id": p.id, "name": p.name, "adjective": p.adjective, "letter": p.letter, "home": list(p.home)}
            for p in variant.powers
        ],
    }


def with_map(variant: Variant) -> dict[str, Any]:
    """The summary with every province, name, alias and border."""
    game_map = variant.map
    aliases: dict[str, list[str]] = {}
    for alias, location in game_map.aliases.items():
        aliases.setdefault(location, []).append(alias)
    homes = {c: p.id for p in variant.powers for c in p.home}
    provinces = []
    for pid, prov in sorted(game_map.provinces.items()):
        entry: dict[str, Any] = {
            "id": pid,
            "name": prov.name,
            "aliases": sorted(aliases.get(pid, [])),
            "type": prov.terrain.value,
            "supply_center": prov.centre,
            "home_of": homes.get(pid),
            "coasts": [
                {"id": c, "aliases": sorted(aliases.get(c, [])), "fleet": sorted(game_map.fleet_borders.get(c, ()))}
                for c in prov.coasts
            ],
            "army": sorted(game_map.army_borders.get(pid, ())),
            "fleet": sorted(game_map.fleet_borders.get(pid, ())),
        }
        if prov.island:
            entry["island"] = True
        if prov.standing_army:
            entry["standing_army"] = True
        provinces.append(entry)
    return {**summary(variant), "provinces": provinces}
