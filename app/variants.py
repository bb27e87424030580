"""The only code that reads `variants/`: TOML files in, engine `Variant` values out."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .engine.geo import Province, Terrain, build_map
from .engine.modules import rule_hooks
from .engine.phases import Phase
from .engine.rules import rule_options
from .engine.variant import (
    BuildSite,
    ConditionalHome,
    HiddenBuildRule,
    HiddenChoice,
    Power,
    Variant,
    with_game_rules,
)

VARIANTS_DIR = Path(__file__).resolve().parent.parent / "variants"


class UnknownVariant(LookupError):
    pass


def available() -> list[str]:
    folders = {p.parent.name for p in VARIANTS_DIR.glob("*/variant.toml")}
    return sorted(folders | {name for name, (folder, _s) in _SETUP_NAMES.items() if folder in folders})


# Variant names that pick a player-count set-up of a variant folder.
_SETUP_NAMES = {"smallworld8": ("smallworld", "eight"), "smallworld7": ("smallworld", "seven")}


def _split_setup(name: str) -> tuple[str, str | None]:
    """`smallworld7` -> ("smallworld", "seven"): the folder and the set-up it names."""
    return _SETUP_NAMES.get(name, (name, None))


@cache
def load_variant(name: str) -> Variant:
    folder, setup = _split_setup(name)
    path = VARIANTS_DIR / folder / "variant.toml"
    if not path.is_file():
        raise UnknownVariant(f"unknown variant {name!r}; known: {', '.join(available())}")
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    chosen: str | None = setup or next(iter(data.get("setups", {})), None)
    if chosen is not None:
        data = _apply_setup(data, chosen)
    return variant_from_data(data, name)


def load_game_variant(name: str, rules: Mapping[str, Any] | None = None) -> Variant:
    """A variant with one game's rule options (`SET RULE`); unknown variants raise
    `UnknownVariant`, unknown options or values `RuleOptionError` (a ValueError)."""
    variant = load_variant(name)
    return with_game_rules(variant, rules) if rules else variant


def _apply_setup(data: dict[str, Any], setup: str) -> dict[str, Any]:
    """A player-count set-up: which powers play, which centres and standing armies differ.

    Keys of `[setups.<name>]`: `powers` (ids of the top-level powers that play),
    `not_centres` (centres that are ordinary spaces here), `standing_armies` (replaces
    the provinces' flags), `title`, `victory_centres`; anything else is kept as data.
    """
    overrides = data.get("setups", {}).get(setup)
    if overrides is None:
        raise UnknownVariant(f"variant {data['name']!r} has no set-up {setup!r}")
    merged = dict(data)
    provinces = {k: dict(v) for k, v in data["provinces"].items()}
    for key, value in overrides.items():
        if key == "powers":
            playing = set(value)
            merged["powers"] = [p for p in data["powers"] if p["id"] in playing]
        elif key == "not_centres":
            for province in value:
                provinces[province]["centre"] = False
        elif key == "standing_armies":
            for province, info in provinces.items():
                info["standing_army"] = province in value
        else:
            merged[key] = value
    merged["provinces"] = provinces
    merged["conditional_homes"] = [
        c for c in data.get("conditional_homes", []) if c.get("setup", setup) == setup
    ]
    merged["setup"] = setup
    return merged


def variant_from_data(data: dict[str, Any], name: str | None = None) -> Variant:
    provinces: list[Province] = []
    army: dict[str, list[str]] = {}
    fleet: dict[str, list[str]] = {}
    aliases: dict[str, list[str]] = {}
    coast_only: dict[str, set[str]] = {}  # a coast alias alone ("east") -> locations using it
    for pid, info in data["provinces"].items():
        coasts = info.get("coasts", {})
        coast_ids = tuple(f"{pid}/{c}" for c in coasts)
        provinces.append(
            Province(
                id=pid,
                name=info["name"],
                terrain=Terrain(info["type"]),
                centre=bool(info.get("centre", False)),
                coasts=coast_ids,
                island=bool(info.get("island", False)),
                standing_army=bool(info.get("standing_army", False)),
                clockwise=tuple(info.get("clockwise", ())),
                xy=tuple(info["xy"]) if "xy" in info else None,
                group=info.get("group"),
                no_attack_before=info.get("no_attack_before"),
                rules_name=info.get("rules_name"),
            )
        )
        aliases[pid] = [pid, info["name"], *([info["rules_name"]] if "rules_name" in info else []),
                        *info.get("aliases", [])]
        if "army" in info:
            army[pid] = list(info["army"])
        if "fleet" in info:
            fleet[pid] = list(info["fleet"])
        for coast, cinfo in coasts.items():
            location = f"{pid}/{coast}"
            fleet[location] = list(cinfo.get("fleet", []))
            coast_names = [coast, cinfo.get("name", ""), *cinfo.get("aliases", [])]
            spellings = [location]
            for alias in [pid, info["name"], *info.get("aliases", [])]:
                spellings += [f"{alias} {coast_name}" for coast_name in coast_names if coast_name]
            aliases[location] = spellings
            for spelling in cinfo.get("aliases", []):
                coast_only.setdefault(spelling, set()).add(location)
    # A coast alias alone ("bul/nc", or "east") names a location only when no other coast uses it.
    for spelling, locations in coast_only.items():
        if len(locations) == 1:
            aliases[next(iter(locations))].append(spelling)
    game_map = build_map(provinces, army, fleet, aliases)
    powers = tuple(
        Power(
            id=p["id"],
            name=p["name"],
            adjective=p.get("adjective", p["name"]),
            letter=p.get("letter", p["id"][0]),
            home=tuple(p["home"]),
            centres=tuple(p.get("centres", p["home"])),
            units=tuple(p.get("units", ())),
            capital=p.get("capital"),
            territories=tuple(p.get("territories", ())),
        )
        for p in data["powers"]
    )
    start = Phase.parse(data["start_phase"])
    playing = {p.id for p in powers}
    groups = data.get("victory_groups", {})
    return Variant(
        name=name or data["name"],
        title=data.get("title", data["name"]),
        map=game_map,
        powers=powers,
        start_phase=start,
        victory_centres=int(data["victory_centres"]),
        rules=rule_options(data.get("rules")),
        build_sites=tuple(
            BuildSite(
                power=b["power"],
                province=b["province"],
                unit=b.get("unit"),
                coast=b.get("coast"),
                from_year=b.get("from_year"),
                requires_owned=b.get("requires_owned", True),
            )
            for b in data.get("build_sites", [])
            if b["power"] in playing
        ),
        conditional_homes=tuple(
            ConditionalHome(power=c["power"], province=c["province"])
            for c in data.get("conditional_homes", [])
            if c["power"] in playing
        ),
        hidden_choices=tuple(
            HiddenChoice(h["power"], h["unit"], tuple(h["options"]), h["reveal_with"])
            for h in data.get("hidden_choices", [])
            if h["power"] in playing
        ),
        hidden_builds=tuple(
            HiddenBuildRule(h["power"], h["phase"], tuple(h["sites"]), h["reveal_after"])
            for h in data.get("hidden_builds", [])
            if h["power"] in playing
        ),
        victory_groups=tuple(groups.get("groups", ())) if groups.get("enabled") else (),
        group_minimum=int(groups.get("minimum_per_group", 0)),
        standing_armies=tuple(p.id for p in provinces if p.standing_army),
        hooks=rule_hooks(data.get("hooks", [])),
        extra={k: v for k, v in data.items() if k not in _KNOWN_KEYS},
    )


_KNOWN_KEYS = {
    "name", "title", "start_phase", "victory_centres", "rules", "powers", "provinces",
    "build_sites", "conditional_homes", "hooks", "setups", "hidden_choices", "hidden_builds",
}
