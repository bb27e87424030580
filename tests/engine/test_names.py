"""Place names as players write them, through the order parser.

Every pair of neighbouring places of every variant, written with full names in the
forms players use (`A Paris - Burgundy`, `A Paris-Burgundy`, `A Paris moves to
Burgundy`, `->`, `to`), must name exactly those two places: a name with spaces or
a dash inside (`Mid-Atlantic Ocean`, `Sea of Japan`) is never split or joined at
the wrong place. Then the traps: a name that could mean two places in context is
refused with the candidates, and a move with more than one destination is refused
(Small World's A/F sail-and-land and the spelt-out convoy path aside).
"""

from __future__ import annotations

import pytest

from app.engine.geo import GameMap, Terrain, province_of
from app.engine.orders import ARMY_FLEET, Convoy, Hold, Land, Move, Remove, Retreat, SupportHold, SupportMove, Unit
from app.engine.parse import OrderSyntaxError, parse_order
from app.variants import load_variant

VARIANTS = ["standard", "zeus5", "smallworld8", "smallworld7"]
FORMS = {
    "spaced dash": "{unit} {source} - {target}",
    "dash": "{unit} {source}-{target}",
    "moves to": "{unit} {source} moves to {target}",
    "arrow": "{unit} {source} -> {target}",
    "to": "{unit} {source} to {target}",
}
MAPS = {name: load_variant(name).map for name in VARIANTS}


def _pairs(game_map: GameMap) -> list[tuple[str, str, str]]:
    """(unit type, from, to) for every army border and every fleet border (per coast)."""
    pairs = [("A", source, target) for source, targets in game_map.army_borders.items() for target in targets]
    pairs += [("F", source, target) for source, targets in game_map.fleet_borders.items() for target in targets]
    return sorted(pairs)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_neighbouring_pair_by_full_names(variant: str, form: str) -> None:
    game_map = MAPS[variant]
    pairs = _pairs(game_map)
    assert len(pairs) > 100, "the map has its borders"
    wrong = []
    for unit_type, source, target in pairs:
        text = FORMS[form].format(unit=unit_type, source=game_map.name(source), target=game_map.name(target))
        want = Move(Unit(unit_type, source), target)
        try:
            got: object = parse_order(text, game_map)
        except OrderSyntaxError as error:
            got = f"refused: {error}"
        if got != want:
            wrong.append(f"{text!r} -> {got}")
    assert not wrong, f"{len(wrong)} of {len(pairs)} misread:\n" + "\n".join(wrong[:40])


def _misread(game_map: GameMap, cases: list[tuple[str, object]]) -> list[str]:
    wrong = []
    for text, want in cases:
        try:
            got: object = parse_order(text, game_map)
        except OrderSyntaxError as error:
            got = f"refused: {error}"
        if got != want:
            wrong.append(f"{text!r} -> {got}")
    return wrong


@pytest.mark.parametrize("variant", VARIANTS)
def test_supports_and_retreats_between_neighbours(variant: str) -> None:
    """`F Mid-Atlantic Ocean retreats to Portugal`, `F Roaring 40's S Chile`: a name
    followed by a retreat or support word is read whole."""
    game_map = MAPS[variant]
    name = game_map.name
    cases: list[tuple[str, object]] = []
    for unit_type, source, target in _pairs(game_map):
        unit = Unit(unit_type, source)
        cases += [
            (f"{unit_type} {name(source)} Supports {unit_type} {name(target)}", SupportHold(unit, province_of(target))),
            (f"{unit_type} {name(source)} S {name(target)}", SupportHold(unit, province_of(target))),
            (f"{unit_type} {name(source)} retreats to {name(target)}", Retreat(unit, target)),
            (f"{unit_type} {name(source)} R {name(target)}", Retreat(unit, target)),
        ]
    wrong = _misread(game_map, cases)
    assert not wrong, f"{len(wrong)} of {len(cases)} misread:\n" + "\n".join(wrong[:40])


@pytest.mark.parametrize("variant", VARIANTS)
def test_convoys_and_supported_moves_by_full_names(variant: str) -> None:
    """Every sea convoying between two of its coasts, the army's move by convoy (with
    and without the path), and a support of every army move from a neighbour."""
    game_map = MAPS[variant]
    name = game_map.name
    cases: list[tuple[str, object]] = []
    for sea, province in sorted(game_map.provinces.items()):
        if province.terrain is not Terrain.SEA:
            continue
        coasts = sorted({province_of(loc) for loc in game_map.fleet_borders.get(sea, ())
                         if game_map.provinces[province_of(loc)].terrain is Terrain.COAST})
        for first in coasts:
            for second in (c for c in coasts if c > first):
                fleet, army = Unit("F", sea), Unit("A", first)
                cases += [
                    (f"F {name(sea)} Convoys A {name(first)} - {name(second)}", Convoy(fleet, first, second)),
                    (f"F {name(sea)} C {name(first)}-{name(second)}", Convoy(fleet, first, second)),
                    (f"A {name(first)} - {name(second)} via convoy", Move(army, second, True)),
                    (f"A {name(first)}-{name(sea)}-{name(second)}", Move(army, second, True)),
                ]
    for source, targets in sorted(game_map.army_borders.items()):
        for target in sorted(targets):
            helper = next((p for p in sorted(game_map.army_borders.get(target, ())) if p != source), None)
            if helper is not None:
                want = SupportMove(Unit("A", helper), source, target)
                cases += [
                    (f"A {name(helper)} Supports A {name(source)} - {name(target)}", want),
                    (f"A {name(helper)} S {name(source)}-{name(target)}", want),
                ]
    wrong = _misread(game_map, cases)
    assert not wrong, f"{len(wrong)} of {len(cases)} misread:\n" + "\n".join(wrong[:40])


NATURAL = [
    # issue 9 item 7: the hyphen of the order, not of a name
    ("smallworld8", "F France - North Sea", Move(Unit("F", "FRA"), "NTH")),
    ("smallworld8", "F France-North Sea", Move(Unit("F", "FRA"), "NTH")),
    ("smallworld8", "F France North - North Sea", Move(Unit("F", "FRA/NC"), "NTH")),  # "France north" is a coast
    ("smallworld7", "F Japan - Sea of Okhotsk", Move(Unit("F", "JAP"), "OKH")),  # not "Japan Sea" + "of Okhotsk"
    ("smallworld7", "F Japan - Sea of Japan", Move(Unit("F", "JAP"), "SOJ")),
    ("smallworld7", "F Japan-Sea of Japan", Move(Unit("F", "JAP"), "SOJ")),
    ("smallworld7", "F Japan Sea - Japan", Move(Unit("F", "SOJ"), "JAP")),  # the alias "Japan Sea" still works
    ("standard", "F Mid-Atlantic Ocean-Spain(nc)", Move(Unit("F", "MAO"), "SPA/NC")),
    ("standard", "F Spain (nc)-Mid-Atlantic Ocean", Move(Unit("F", "SPA/NC"), "MAO")),
    ("zeus5", "F Midway Island-Mid-Pacific Ocean", Move(Unit("F", "MID"), "MPO")),
    ("zeus5", "F Mid - Haw", Move(Unit("F", "MID"), "HAW")),  # a province id is never a trap
    ("standard", "A Par Bur", Move(Unit("A", "PAR"), "BUR")),  # no dash at all
    # trap names read by context: only one of the places fits the unit (Zeus 5 rule 3)
    ("zeus5", "A Okhotsk - Siberia", Move(Unit("A", "MAG"), "SIB")),  # an army is not at sea
    ("zeus5", "A Siberia - Okhotsk", Move(Unit("A", "SIB"), "MAG")),
    ("zeus5", "F Sea of Okhotsk - Okhotsk", Move(Unit("F", "SOO"), "MAG")),  # a fleet does not move to itself
    ("zeus5", "F Ess S A Sib - Okhotsk", SupportMove(Unit("F", "ESS"), "SIB", "MAG")),  # the army reaches one
    ("zeus5", "F Amu - Sea of Okhotsk", Move(Unit("F", "AMU"), "SOO")),  # full names always work
    ("zeus5", "F Amu - OKH", Move(Unit("F", "AMU"), "MAG")),  # and so do exact, unambiguous aliases
    # the name the rules give a province is never a trap (issue 22.16: Zeus 5 rule 3's Okhotsk)
    ("zeus5", "F Amu - Okhotsk", Move(Unit("F", "AMU"), "MAG")),
    ("zeus5", "F Okhotsk H", Hold(Unit("F", "MAG"))),
    ("zeus5", "Remove F Okhotsk", Remove(Unit("F", "MAG"))),
    # the documented multi-step forms
    ("standard", "A Lon - Nth - Nwy", Move(Unit("A", "LON"), "NWY", True)),  # convoy path (DATC 4.A.6)
    ("smallworld8", "A/F South China Sea - Bay of Bengal - Burma", Land(Unit(ARMY_FLEET, "SCS"), "BUR", "BOB")),
    ("smallworld8", "A/F Bay of Bengal - Burma", Move(Unit(ARMY_FLEET, "BOB"), "BUR")),  # a landing, seen later
    ("smallworld8", "F France north coast H", Hold(Unit("F", "FRA/NC"))),
]


@pytest.mark.parametrize("variant, text, expected", NATURAL, ids=[f"{v}:{t}" for v, t, _ in NATURAL])
def test_natural_names(variant: str, text: str, expected: object) -> None:
    assert parse_order(text, MAPS[variant]) == expected


REFUSED = [
    # issue 8 item 11: a trap name gets a "did you mean" with every place it could be
    ("smallworld8", "F Bay of Biscay - Atlantic", ["did you mean", "France (FRA/NC)", "North Atlantic (NAO)"]),
    # a move has one destination
    ("standard", "F Adr-Rom-Ven", ["one destination", "order the fleets to convoy"]),
    ("standard", "F Tri-Alb-Ven", ["one destination"]),
    ("zeus5", "F Adr-Rom-Ven", ["one destination"]),
    ("standard", "A Par - Bur - Mun", ["one destination"]),  # a path over land is no convoy path
    ("standard", "F Nth - Eng - Bre", ["one destination"]),  # fleets are never convoyed
    ("smallworld8", "A/F South China Sea - Bay of Bengal - Andaman Sea - Burma", ["one destination"]),
]


@pytest.mark.parametrize("variant, text, words", REFUSED, ids=[f"{v}:{t}" for v, t, _ in REFUSED])
def test_refused_names(variant: str, text: str, words: list[str]) -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order(text, MAPS[variant])
    for word in words:
        assert word in str(caught.value)


def test_a_refused_order_names_its_unit() -> None:
    """The error of a multi-step move or a trap name carries the unit it was given to."""
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order("F Tri-Alb-Ven", MAPS["standard"])
    assert caught.value.unit == Unit("F", "TRI")
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order("F Bay of Biscay - Atlantic", MAPS["smallworld8"])
    assert caught.value.unit == Unit("F", "MAO")
