"""Rule options where editions of the rules differ, as named values.

Each option names the DATC v3.0 issue it settles. An edition is a bundle of
defaults; a variant or a game may still override a single option. Every option
takes only the values of its enum (or a bool): anything else is refused with the
list of valid values, when a variant is loaded and when a game sets a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any


class RuleOptionError(ValueError):
    """An unknown rule option, or a value the option does not take."""


class Edition(StrEnum):
    E2023 = "2023"
    E2000 = "2000"
    E1982 = "1982"
    E1976 = "1976"
    E1971 = "1971"


class CivilDisorderRemoval(StrEnum):
    """DATC 4.D.8 / 6.J: which unit a power in civil disorder removes."""

    OWNED_ANY_TERRAIN = "owned_any_terrain"  # farthest from any owned centre, over land and sea (2023)
    HOME_BY_UNIT = "home_by_unit"  # farthest from a home centre, fleets by sea only (1971/1976)


class AdjacentConvoy(StrEnum):
    """DATC 4.A.3: when an army may reach an adjacent province by convoy."""

    INTENT = "intent"  # "via convoy", or a fleet of its own power convoys it (2000/2023)
    OPPOSITE = "opposite"  # only when the unit at the destination moves the opposite way (1971)


class ParadoxRule(StrEnum):
    """DATC 4.A.2: convoy paradoxes. Only Szykman's rule is implemented."""

    SZYKMAN = "szykman"  # the convoying fleets of the paradox hold, the convoyed move fails


class RetreatDefault(StrEnum):
    """What an unordered dislodged unit does."""

    DISBAND = "disband"  # the rulebook
    RIGHT_HAND = "right_hand"  # Just's Right-Hand Rule (Small World 11.2)


class RemovalDefault(StrEnum):
    """Removals a power owes but did not order."""

    CIVIL_DISORDER = "civil_disorder"  # the rulebook's distance rule (`civil_disorder_removal`)
    LEAST_IMPACT = "least_impact"  # the GM's least-impact choice (Small World 11.3)


class NmrBuilds(StrEnum):
    """Builds a power did not order (DATC 4.D.7)."""

    WAIVE = "waive"


@dataclass(frozen=True)
class RuleOptions:
    edition: Edition = Edition.E2023
    civil_disorder_removal: CivilDisorderRemoval = CivilDisorderRemoval.OWNED_ANY_TERRAIN
    adjacent_convoy: AdjacentConvoy = AdjacentConvoy.INTENT
    # DATC 4.A.5: a unit dislodged by a convoyed army may retreat to the army's origin (2023).
    retreat_to_convoy_origin: bool = True
    paradox_rule: ParadoxRule = ParadoxRule.SZYKMAN
    retreat_default: RetreatDefault = RetreatDefault.DISBAND
    removal_default: RemovalDefault = RemovalDefault.CIVIL_DISORDER
    nmr_builds: NmrBuilds = NmrBuilds.WAIVE
    # Small World 11.2: Fall retreats are ordered with the Winter adjustments, one deadline
    # (the phase after F..M is W..A carrying the dislodged units; combined.py).
    retreats_with_adjustments: bool = False

    def with_overrides(self, overrides: Mapping[str, Any]) -> RuleOptions:
        """These options with some replaced; unknown names or values raise RuleOptionError."""
        unknown = sorted(set(overrides) - set(OPTION_NAMES))
        if unknown:
            raise RuleOptionError(f"unknown rule options: {', '.join(unknown)}; options: {', '.join(OPTION_NAMES)}")
        return replace(self, **{name: check_option(name, value) for name, value in overrides.items()})


_TYPES: dict[str, type] = {
    "edition": Edition,
    "civil_disorder_removal": CivilDisorderRemoval,
    "adjacent_convoy": AdjacentConvoy,
    "retreat_to_convoy_origin": bool,
    "paradox_rule": ParadoxRule,
    "retreat_default": RetreatDefault,
    "removal_default": RemovalDefault,
    "nmr_builds": NmrBuilds,
    "retreats_with_adjustments": bool,
}
OPTION_NAMES: tuple[str, ...] = tuple(_TYPES)


def valid_values(name: str) -> tuple[str, ...]:
    """The values an option takes, as written in variant data and SET RULE."""
    kind = _TYPES[name]
    if kind is bool:
        return ("true", "false")
    return tuple(member.value for member in kind)  # type: ignore[attr-defined]


def check_option(name: str, value: object) -> Any:
    """The typed value of one rule option; RuleOptionError says what is valid."""
    kind = _TYPES.get(name)
    if kind is None:
        raise RuleOptionError(f"unknown rule options: {name}; options: {', '.join(OPTION_NAMES)}")
    if kind is bool:
        if isinstance(value, bool):
            return value
    elif isinstance(value, (str, int)) and not isinstance(value, bool):
        try:
            return kind(str(value))
        except ValueError:
            pass
    raise RuleOptionError(f"{name} must be one of: {', '.join(valid_values(name))} (got {value!r})")


EDITIONS: dict[str, RuleOptions] = {
    Edition.E2023: RuleOptions(),
    Edition.E2000: RuleOptions(
        edition=Edition.E2000,
        civil_disorder_removal=CivilDisorderRemoval.HOME_BY_UNIT,
        retreat_to_convoy_origin=False,
    ),
    Edition.E1982: RuleOptions(
        edition=Edition.E1982,
        civil_disorder_removal=CivilDisorderRemoval.HOME_BY_UNIT,
        retreat_to_convoy_origin=False,
    ),
    Edition.E1976: RuleOptions(
        edition=Edition.E1976,
        civil_disorder_removal=CivilDisorderRemoval.HOME_BY_UNIT,
        adjacent_convoy=AdjacentConvoy.OPPOSITE,
        retreat_to_convoy_origin=False,
    ),
    Edition.E1971: RuleOptions(
        edition=Edition.E1971,
        civil_disorder_removal=CivilDisorderRemoval.HOME_BY_UNIT,
        adjacent_convoy=AdjacentConvoy.OPPOSITE,
        retreat_to_convoy_origin=False,
    ),
}


def edition_options(edition: object) -> RuleOptions:
    """The defaults of a named edition of the rules."""
    return EDITIONS[check_option("edition", edition)]


def rule_options(settings: Mapping[str, Any] | None) -> RuleOptions:
    """Rule options from a variant's or game's `[rules]` table."""
    options = dict(settings or {})
    edition = options.pop("edition", Edition.E2023)
    return edition_options(edition).with_overrides(options)
