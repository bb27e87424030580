"""The starting position of a variant, and units written as text (`A PAR`, `F SPA/SC`)."""

from __future__ import annotations

from .geo import Terrain, province_of
from .orders import ARMY_FLEET, Hold, Unit
from .parse import OrderSyntaxError, parse_order
from .state import NEUTRAL, GameState
from .variant import Variant


class BadUnit(ValueError):
    """A unit written wrongly, or one that cannot stand where it is written."""


def read_unit(text: str, variant: Variant) -> Unit:
    """`F SPA/SC`, `A PAR`, `Fleet Spain (south coast)`, `A/F NTH`: a unit on the board
    (remembered per map: the same text always reads the same)."""
    key = ("unit", text)
    known = variant.map.memo.get(key)
    if isinstance(known, Unit):
        return known
    unit = _read_unit(text, variant)
    variant.map.remember(key, unit)
    return unit


def _read_unit(text: str, variant: Variant) -> Unit:
    try:
        order = parse_order(text, variant.map)
    except OrderSyntaxError as error:
        raise BadUnit(f"bad unit {text!r}: {error}") from None
    if not isinstance(order, Hold) or order.unit.type not in ("A", "F", ARMY_FLEET):
        raise BadUnit(f"bad unit {text!r}: write it as 'A PAR' or 'F SPA/SC'")
    unit = order.unit
    if unit.type != "F":
        return Unit(unit.type, province_of(unit.location))
    province = variant.map.provinces[province_of(unit.location)]
    if province.coasts and "/" not in unit.location:
        raise BadUnit(f"bad unit {text!r}: a fleet in {province.name} needs its coast")
    return unit


def standing_unit(text: str, variant: Variant) -> Unit:
    """`read_unit`, refusing a unit that cannot stand where it is written (remembered)."""
    key = ("standing", text)
    known = variant.map.memo.get(key)
    if isinstance(known, Unit):
        return known
    unit = read_unit(text, variant)
    check_standing(text, unit, variant)
    variant.map.remember(key, unit)
    return unit


def check_standing(text: str, unit: Unit, variant: Variant) -> None:
    """Refuse a unit that cannot stand where it is (an army at sea, a fleet inland)."""
    province = variant.map.provinces[province_of(unit.location)]
    terrain = province.terrain
    if (
        terrain is Terrain.IMPASSABLE
        or (unit.type == "A" and terrain is Terrain.SEA and not province.island)
        or (unit.type == "F" and terrain is Terrain.LAND)
        or (unit.type == ARMY_FLEET and not province.convoy_water)
    ):
        raise BadUnit(f"{text!r}: that unit cannot stand in {variant.map.name(province.id)}")


def initial_units(variant: Variant) -> dict[str, tuple[str, Unit]]:
    """The variant's starting units (and its standing neutral armies), by province."""
    units: dict[str, tuple[str, Unit]] = {}
    for power in variant.powers:
        for text in power.units:
            unit = read_unit(text, variant)
            units[province_of(unit.location)] = (power.id, unit)
    for province in variant.standing_armies:
        units.setdefault(province, (NEUTRAL, Unit("A", province)))
    return units


def initial_centres(variant: Variant) -> dict[str, str]:
    return {c: p.id for p in variant.powers for c in p.centres}


def initial_territories(variant: Variant) -> dict[str, str]:
    return {t: p.id for p in variant.powers for t in p.territories}


def initial_state(variant: Variant) -> GameState:
    """The position at the variant's first phase."""
    return GameState(
        variant.start_phase,
        initial_units(variant),
        initial_centres(variant),
        territories=initial_territories(variant),
    )
