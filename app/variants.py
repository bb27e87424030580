"""The only code that reads `variants/`: TOML files in, engine `Variant` values out, and the
registry of the names games are played under.

Each folder `variants/<name>/` is one variant; its `variant.toml` declares, beside the map and
the rules, what the judge does with it (variants/README.md, "What the judge offers"): the names
of its player-count set-ups (`[setups.<key>] name = ...`), its offer on the dashboard's new-game
form (`[offer]`, `[setups.<key>.offer]`) and the HELP section its players get (`help`, a file
of the folder). Nothing else in the judge names a variant: a new variant is its folder.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
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
DEFAULT_VARIANT = "standard"  # the variant a game, a request or a command gets when it names none: the one place it is named


class UnknownVariant(LookupError):
    pass


class VariantDataError(ValueError):
    """A variant folder's declarations are wrong (a missing help file, a name used twice...)."""


@dataclass(frozen=True)
class Offer:
    """How the dashboard's new-game form offers a variant name."""

    title: str
    description: str = ""
    offered: bool = True


@dataclass(frozen=True)
class VariantEntry:
    """A name games are played under: a variant folder (with its first set-up, if it has
    set-ups) or one of its named set-ups (`smallworld7`: folder `smallworld`, set-up `seven`)."""

    name: str
    folder: str
    setup: str | None  # the set-up it plays (None: the folder's first, or the folder has none)
    title: str
    offer: Offer
    help: str | None  # the HELP section for its players (None: none beyond the commands)


_OFFER_KEYS = {"title", "description", "offered"}
_SETUP_REGISTRY_KEYS = {"name", "offer"}  # what a set-up declares for the registry, not the game


def _offer(declared: Any, title: str, where: str) -> Offer:
    if declared is None:
        return Offer(title)
    if not isinstance(declared, dict) or set(declared) - _OFFER_KEYS:
        raise VariantDataError(f"{where}: [offer] takes {', '.join(sorted(_OFFER_KEYS))}")
    offered = declared.get("offered", True)
    if not isinstance(offered, bool):
        raise VariantDataError(f"{where}: offered = true or false")
    return Offer(str(declared.get("title", title)), str(declared.get("description", "")), offered)


def _help(folder: Path, declared: Any) -> str | None:
    if declared is None:
        return None
    path = folder / str(declared)
    if path.parent != folder or not path.is_file():
        raise VariantDataError(f"{folder.name}: help = {declared!r} is not a file of the folder")
    return path.read_text(encoding="utf-8").rstrip("\n")


@cache
def _toml(path: Path) -> dict[str, Any]:
    """A variant folder's `variant.toml`, parsed once (the registry and the loader both read it;
    callers copy what they change)."""
    with path.open("rb") as handle:
        return tomllib.load(handle)


def _folder_entries(folder: Path) -> list[VariantEntry]:
    """The names one variant folder declares: its own, and one per named set-up."""
    data = _toml(folder / "variant.toml")
    where = f"variants/{folder.name}/variant.toml"
    if data.get("name", folder.name) != folder.name:
        raise VariantDataError(f"{where}: name = {data['name']!r}, but the folder is {folder.name!r}")
    title = str(data.get("title", folder.name))
    help_text = _help(folder, data.get("help"))
    entries = [VariantEntry(folder.name, folder.name, None, title, _offer(data.get("offer"), title, where), help_text)]
    for key, setup in data.get("setups", {}).items():
        if "name" not in setup:
            continue  # played only as the folder's first set-up
        setup_title = str(setup.get("title", title))
        offer = _offer(setup.get("offer"), setup_title, f"{where} [setups.{key}]")
        entries.append(VariantEntry(str(setup["name"]), folder.name, key, setup_title, offer, help_text))
    return entries


@cache
def _registry(directory: Path) -> dict[str, VariantEntry]:
    entries: dict[str, VariantEntry] = {}
    for path in sorted(directory.glob("*/variant.toml")):
        for entry in _folder_entries(path.parent):
            if entry.name in entries:
                raise VariantDataError(f"variant name {entry.name!r} is declared twice "
                                       f"(variants/{entries[entry.name].folder}, variants/{entry.folder})")
            entries[entry.name] = entry
    return entries


def registry() -> dict[str, VariantEntry]:
    """Every name games may be played under, read once from `VARIANTS_DIR`."""
    return _registry(VARIANTS_DIR)


def available() -> list[str]:
    return sorted(registry())


def variant_entry(name: str) -> VariantEntry:
    """The registry's entry for a variant name (`UnknownVariant` if there is none)."""
    entry = registry().get(name)
    if entry is None:
        raise UnknownVariant(f"unknown variant {name!r}; known: {', '.join(available())}")
    return entry


def offered() -> list[VariantEntry]:
    """The names the dashboard's new-game form offers, in `available()` order."""
    entries = registry()
    return [entries[name] for name in available() if entries[name].offer.offered]


def help_section(name: str) -> str | None:
    """The HELP section the players of a variant get, as its folder declares it (None: the
    variant has none, or the name is no variant of `variants/`, such as dod3)."""
    entry = registry().get(name.lower())
    return entry.help if entry is not None else None


def variant_folder(name: str) -> Path:
    """The folder of a variant name (`smallworld7` -> variants/smallworld)."""
    return VARIANTS_DIR / variant_entry(name).folder


def folder_names(folder: str) -> list[str]:
    """The names a folder's games are played under: its named set-ups, or the folder itself."""
    names = [e.name for e in registry().values() if e.folder == folder and e.setup is not None]
    return names or [folder]


def load_variant(name: str) -> Variant:
    return _load_variant(VARIANTS_DIR, name)


@cache
def _load_variant(directory: Path, name: str) -> Variant:
    own = directory / name / "variant.toml"
    if name.isidentifier() and own.is_file():
        # A folder's own name (the registry's first entry of every folder): read that folder alone,
        # not every variant's declarations (`judge adjudicate` starts faster).
        data = _toml(own)
        if data.get("name", name) != name:
            raise VariantDataError(f"variants/{name}/variant.toml: name = {data['name']!r}, but the folder is {name!r}")
        setup: str | None = None
    else:
        entry = _registry(directory).get(name)
        if entry is None:
            raise UnknownVariant(f"unknown variant {name!r}; known: {', '.join(sorted(_registry(directory)))}")
        data, setup = _toml(directory / entry.folder / "variant.toml"), entry.setup
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
    the provinces' flags), `title`, `victory_centres`; `name` and `offer` are the registry's;
    anything else is kept as data.
    """
    overrides = data.get("setups", {}).get(setup)
    if overrides is None:
        raise UnknownVariant(f"variant {data['name']!r} has no set-up {setup!r}")
    merged = dict(data)
    provinces = {k: dict(v) for k, v in data["provinces"].items()}
    for key, value in overrides.items():
        if key in _SETUP_REGISTRY_KEYS:
            continue
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
    "help", "offer",  # the registry's
}
