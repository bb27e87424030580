"""A variant as the engine sees it: a map, powers, a start, victory, rule options, and the
hooks of its optional rule modules (`RuleHooks`: the points where a module changes the game;
the modules themselves are registered in modules.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from .geo import GameMap
from .hooks import Hook
from .orders import Order, Unit
from .outcomes import OrderEntry
from .phases import Phase
from .resolve import MovementResolution
from .rules import OPTION_NAMES, RuleOptionError, RuleOptions, edition_options
from .state import GameState


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


# -- optional rule modules (the names: hooks.py; the modules: modules.py) ----------------


class RuleModule:
    """One optional rule module. Each hook point of this base leaves the game as plain
    Diplomacy; a module overrides those it changes."""

    def convoy_max_fleets(self) -> int | None:
        """How many fleets one convoy may use (None: any number)."""
        return None

    def may_disband_with_retreat(self) -> bool:
        """Whether a dislodged unit that has a retreat may be ordered to disband."""
        return True

    def order_kinds(self) -> tuple[type, ...]:
        """Order kinds beyond the standard ones that this module gives (`Board`, `Land`)."""
        return ()

    def prepare_movement(
        self, variant: Variant, state: GameState, chosen: dict[str, OrderEntry], entries: list[OrderEntry]
    ) -> tuple[GameState, dict[str, OrderEntry]]:
        """Before the moves: the board and each unit's chosen order, changed (boardings)."""
        return state, chosen

    def split_orders(self, units: dict[str, tuple[str, Unit]], orders: dict[str, Order]) -> dict[str, str | None]:
        """Orders the resolver reads as several units, split in place (`units`, `orders`);
        returns each added unit -> the unit whose move it needs first (None: none)."""
        return {}

    def after_movement(
        self,
        variant: Variant,
        state: GameState,
        res: MovementResolution,
        units: dict[str, tuple[str, Unit]],
        removed: list[tuple[str, Unit]],
        starved: set[str] | None,
        aboard: dict[str, str] | None,
    ) -> dict[str, int]:
        """The board after the moves, changed in place (`units`, `removed`, `starved`,
        `aboard`); returns each A/F's count of moves at sea."""
        return {}

    def recheck_orders(self, variant: Variant, state: GameState, entries: list[OrderEntry]) -> None:
        """One power's orders checked on arrival, read again as the movement phase will read
        them (in place)."""
        return None

    def convoy_hint(self, variant: Variant, fleet: str, army: str, target: str) -> str:
        """Words added to the refusal of a convoy order that is on no convoy route."""
        return ""


class RuleHooks:
    """A variant's rule modules as one object: what the adjudicator calls, at each point
    where a module may change the game (it never asks whether a module is switched on).

    `names`: the hooks the variant data names; `modules`: their modules, in that order.
    The answers that do not depend on the board are worked out once, here."""

    def __init__(self, names: tuple[Hook, ...] = (), modules: tuple[RuleModule, ...] = ()) -> None:
        self.names = names
        self.modules = modules
        limits = [m.convoy_max_fleets() for m in modules]
        self.convoy_max_fleets: int | None = min((n for n in limits if n is not None), default=None)
        self.may_disband_with_retreat = all(m.may_disband_with_retreat() for m in modules)
        self.order_kinds: frozenset[type] = frozenset(kind for m in modules for kind in m.order_kinds())

    def __repr__(self) -> str:
        return f"RuleHooks({', '.join(self.names)})"

    def prepare_movement(
        self, variant: Variant, state: GameState, chosen: dict[str, OrderEntry], entries: list[OrderEntry]
    ) -> tuple[GameState, dict[str, OrderEntry]]:
        for module in self.modules:
            state, chosen = module.prepare_movement(variant, state, chosen, entries)
        return state, chosen

    def split_orders(self, units: dict[str, tuple[str, Unit]], orders: dict[str, Order]) -> dict[str, str | None]:
        carried: dict[str, str | None] = {}
        for module in self.modules:
            carried.update(module.split_orders(units, orders))
        return carried

    def after_movement(
        self,
        variant: Variant,
        state: GameState,
        res: MovementResolution,
        units: dict[str, tuple[str, Unit]],
        removed: list[tuple[str, Unit]],
        starved: set[str] | None = None,
        aboard: dict[str, str] | None = None,
    ) -> dict[str, int]:
        at_sea: dict[str, int] = {}
        for module in self.modules:
            at_sea.update(module.after_movement(variant, state, res, units, removed, starved, aboard))
        return at_sea

    def recheck_orders(self, variant: Variant, state: GameState, entries: list[OrderEntry]) -> None:
        for module in self.modules:
            module.recheck_orders(variant, state, entries)

    def convoy_hint(self, variant: Variant, fleet: str, army: str, target: str) -> str:
        return "".join(module.convoy_hint(variant, fleet, army, target) for module in self.modules)


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
    hooks: RuleHooks = field(default_factory=RuleHooks)  # its optional rule modules (hooks.py, modules.py)
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
