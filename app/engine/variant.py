"""A variant as the engine sees it: a map, powers, a start, victory and rule options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from .geo import GameMap
from .hooks import Hook
from .phases import Phase
from .rules import OPTION_NAMES, RuleOptionError, RuleOptions, edition_options


@dataclass(frozen=True)
class Power:
    id: str
    name: str
    adjective: str
    letter: str
    home: tuple[str, ...]
    centres: tuple[str, ...]
    units: tuple[str, ...]  # "A PAR", "F STP/SC"
    capital: str | None = None
    territories: tuple[str, ...] = ()  # non-centre provinces owned at the start (a build site may need one)


@dataclass(frozen=True)
class BuildSite:
    """An extra place a power may build, beyond its home centres."""

    power: str
    province: str
    unit: str | None = None  # "A", "F" or None for either
    coast: str | None = None  # only this coast for fleets ("ONT/HB")
    from_year: int | None = None
    requires_owned: bool = True


@dataclass(frozen=True)
class ConditionalHome:
    """A centre that counts as a home centre of `power` while that power owns it."""

    power: str
    province: str


@dataclass(frozen=True)
class HiddenChoice:
    """A starting unit whose coast or type its power reveals only with its orders of
    `reveal_with` (Small World 6.1/6.2); `options` are the units it may turn out to be."""

    power: str
    unit: str
    options: tuple[str, ...]
    reveal_with: str


@dataclass(frozen=True)
class HiddenBuildRule:
    """Builds of `power` in `phase` at one of `sites` stay secret until the results of
    `reveal_after` (Zeus 5 rule 4)."""

    power: str
    phase: str
    sites: tuple[str, ...]
    reveal_after: str


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    map: GameMap
    powers: tuple[Power, ...]
    start_phase: Phase
    victory_centres: int
    rules: RuleOptions
    build_sites: tuple[BuildSite, ...] = ()
    conditional_homes: tuple[ConditionalHome, ...] = ()
    standing_armies: tuple[str, ...] = ()  # provinces holding a neutral army at the start
    hooks: tuple[Hook, ...] = ()  # named rule hooks the variant switches on (checked: hooks.py)
    hidden_choices: tuple[HiddenChoice, ...] = ()
    hidden_builds: tuple[HiddenBuildRule, ...] = ()
    victory_groups: tuple[str, ...] = ()  # when set: a solo needs `group_minimum` centres in each group
    group_minimum: int = 0
    extra: dict[str, Any] = field(default_factory=dict)  # variant data the engine passes through

    def power(self, power_id: str) -> Power:
        for power in self.powers:
            if power.id == power_id:
                return power
        raise KeyError(power_id)

    @cached_property
    def power_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.powers)

    @property
    def territory_provinces(self) -> frozenset[str]:
        """Non-centre provinces whose ownership the variant tracks."""
        return frozenset(t for p in self.powers for t in p.territories)

    def phase(self, text: str) -> Phase:
        phase = Phase.parse(text)
        return Phase(phase.year, phase.season, phase.kind, self.start_phase.digits)


def with_game_rules(variant: Variant, rules: Mapping[str, Any]) -> Variant:
    """A variant with one game's rule options: any option of `RuleOptions` (an `edition`
    resets the rest to that edition's), and `victory_groups` (bool) for the three-group
    victory rule of a variant that defines groups. Unknown names or values raise
    `RuleOptionError`, whose message lists the valid ones."""
    options = dict(rules)
    groups = options.pop("victory_groups", None)
    edition = options.pop("edition", None)
    base = edition_options(edition) if edition is not None else variant.rules
    try:
        changed = replace(variant, rules=base.with_overrides(options))
    except RuleOptionError as error:
        if str(error).startswith("unknown rule options"):
            names = ", ".join((*OPTION_NAMES, "victory_groups"))
            raise RuleOptionError(f"{str(error).split(';')[0]}; options: {names}") from None
        raise
    if groups is not None:
        if not isinstance(groups, bool):
            raise RuleOptionError(f"victory_groups must be one of: true, false (got {groups!r})")
        defined = tuple(variant.extra.get("victory_groups", {}).get("groups", ()))
        if groups and not defined:
            raise RuleOptionError(f"{variant.name} has no victory groups")
        changed = replace(changed, victory_groups=defined if groups else ())
    return changed
