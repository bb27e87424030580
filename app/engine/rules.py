"""Rule options where editions of the rules differ, as named values.

Each option names the DATC v3.0 issue it settles. An edition is a bundle of
defaults; a variant or a game may still override a single option.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


class RuleOptionError(ValueError):
    """An unknown rule option, or a value the option does not take."""


@dataclass(frozen=True)
class RuleOptions:
    edition: str = "2023"
    # DATC 4.D.8 / 6.J: which unit a power in civil disorder removes.
    #   "owned_any_terrain": farthest from any owned centre, every unit crossing land and sea (2023);
    #   "home_by_unit": farthest from a home centre, fleets by sea only, armies over land and sea (1971/1976).
    civil_disorder_removal: str = "owned_any_terrain"
    # DATC 4.A.3: when an army may reach an adjacent province overland or by convoy.
    #   "intent": by convoy only when ordered "via convoy" or a fleet of its own power convoys it (2000/2023);
    #   "opposite": by convoy only when the unit at the destination moves the opposite way (1971).
    adjacent_convoy: str = "intent"
    # DATC 4.A.5: a unit dislodged by a convoyed army may retreat to the army's origin (2023).
    retreat_to_convoy_origin: bool = True
    # DATC 4.A.2: convoy paradoxes. Only Szykman's rule is implemented: the convoying
    # fleets of the paradox hold and the convoyed move fails.
    paradox_rule: str = "szykman"
    # What an unordered dislodged unit does: "disband" (standard), "right_hand" (Just's rule).
    retreat_default: str = "disband"
    # Removals a power did not order: "civil_disorder" (the rule above), "least_impact" (GM choice).
    removal_default: str = "civil_disorder"
    # Builds may be waived explicitly (DATC 4.D.7, 2000/2023); unordered builds are waived.
    nmr_builds: str = "waive"

    def with_overrides(self, overrides: dict[str, Any]) -> RuleOptions:
        known = {f.name for f in fields(self)}
        unknown = set(overrides) - known
        if unknown:
            raise RuleOptionError(f"unknown rule options: {', '.join(sorted(unknown))}")
        return replace(self, **overrides)


EDITIONS: dict[str, RuleOptions] = {
    "2023": RuleOptions(),
    "2000": RuleOptions(edition="2000", civil_disorder_removal="home_by_unit", retreat_to_convoy_origin=False),
    "1982": RuleOptions(edition="1982", civil_disorder_removal="home_by_unit", retreat_to_convoy_origin=False),
    "1976": RuleOptions(
        edition="1976",
        civil_disorder_removal="home_by_unit",
        adjacent_convoy="opposite",
        retreat_to_convoy_origin=False,
    ),
    "1971": RuleOptions(
        edition="1971",
        civil_disorder_removal="home_by_unit",
        adjacent_convoy="opposite",
        retreat_to_convoy_origin=False,
    ),
}


def rule_options(settings: dict[str, Any] | None) -> RuleOptions:
    """Rule options from a variant's or game's `[rules]` table."""
    settings = dict(settings or {})
    edition = str(settings.pop("edition", "2023"))
    if edition not in EDITIONS:
        raise RuleOptionError(f"unknown rules edition {edition!r}; known: {', '.join(EDITIONS)}")
    return EDITIONS[edition].with_overrides(settings)
