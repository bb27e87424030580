"""Rule 8.7: the few option numbers the playtest draft prints in full (IPO 1, IPO 2)."""

from __future__ import annotations

from fractions import Fraction

from .exact import NumberInput, parse_number, parse_whole

__all__ = ["ipo1_movement_points", "ipo2_can_break_agreement", "ipo2_can_make_agreement", "ipo2_cost"]


def ipo1_movement_points(position: int, ideology: str) -> int:
    """IPO 1 New World Order: movement points by initiative position (1st = 8 ... 8th = 1),
    -2 for a Democrat, -1 for a Communist, never less than 1."""
    position = parse_whole(position, what="initiative position")
    if not 1 <= position <= 8:
        raise ValueError(f"initiative positions are 1 to 8, not {position}")
    points = 9 - position
    name = ideology.strip().lower()
    if name.startswith("democ"):
        points -= 2
    elif name.startswith("commun"):
        points -= 1
    elif not name.startswith("fascis"):
        raise ValueError(f"unknown ideology {ideology!r}")
    return max(points, 1)


def ipo2_cost(two_resources: bool = False, base: NumberInput = 4) -> Fraction:
    """IPO 2 Minor Economic Agreement: doubled to 8 money for two resources (so 4 for one)."""
    cost = parse_number(base)
    return cost * 2 if two_resources else cost


def ipo2_can_make_agreement(initiative: int, willpower: NumberInput) -> bool:
    """Making an agreement: your initiative position must be <= the minor's willpower (war chart)."""
    return parse_whole(initiative, what="initiative") <= parse_number(willpower)


def ipo2_can_break_agreement(
    initiative: int, willpower: NumberInput, other_initiative: int, own_agreement: bool = False
) -> bool:
    """Breaking another power's agreement: your initiative must be less than the minor's
    willpower and less than half the other power's initiative. Your own: always."""
    if own_agreement:
        return True
    mine = parse_whole(initiative, what="initiative")
    return mine < parse_number(willpower) and mine < Fraction(parse_whole(other_initiative, what="initiative"), 2)
