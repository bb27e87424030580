"""Step D: bonus bid points for the powers that played no option this turn."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .exact import NumberInput, parse_number, round_rule, to_json_number
from .powers import normalise_power, normalise_powers

__all__ = ["BonusChange", "bonus_bid_points"]


@dataclass(frozen=True)
class BonusChange:
    power: str
    modified_pe: Fraction
    bid_points_gained: int
    money_lost: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "power": self.power,
            "modified_pe": to_json_number(self.modified_pe),
            "bid_points_gained": self.bid_points_gained,
            "money_lost": self.money_lost,
        }


def bonus_bid_points(
    modified_pe: Mapping[str, NumberInput],
    played: Iterable[str],
) -> tuple[BonusChange, ...]:
    """Step D: every power that played no option this turn gains bid points equal to
    its current modified PE (rounded by rule 1.1), or, if that is negative, loses that
    much money (which may take it below its credit limit). Powers that played get nothing."""
    played_set = set(normalise_powers(played)) if played else set()
    changes = []
    for power, value in modified_pe.items():
        code = normalise_power(power)
        if code in played_set:
            continue
        pe = parse_number(value, what=f"{code} modified PE")
        amount = round_rule(pe)
        changes.append(
            BonusChange(
                power=code,
                modified_pe=pe,
                bid_points_gained=max(amount, 0),
                money_lost=max(-amount, 0),
            )
        )
    return tuple(changes)
