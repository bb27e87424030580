"""The order parser: what players write -> typed orders; rejected lines -> reasons.

Tables first: every example of issue 2, full names and aliases, case and
punctuation, spellings of via convoy / support / convoy / hold, and the reasons a
player reads for rejected lines (through `jsonapi.check_orders`).
"""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from app import jsonapi
from app.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from app.engine.parse import OrderSyntaxError, parse_order
from app.variants import VARIANTS_DIR, load_variant

MAP = load_variant("standard").map

def A(location: str) -> Unit:  # reads like the order text
    return Unit("A", location)


def F(location: str) -> Unit:
    return Unit("F", location)


def parse(text: str):
    return parse_order(text, MAP)


# -- the examples of issue 2 ------------------------------------------------------

ISSUE_EXAMPLES = [
    ("A Par-Bur", Move(A("PAR"), "BUR")),
    ("A PAR - BUR", Move(A("PAR"), "BUR")),
    ("Army Paris moves to Burgundy", Move(A("PAR"), "BUR")),
    ("F nth c a lon-nwy", Convoy(F("NTH"), "LON", "NWY")),
    ("A Lon-Nwy via convoy", Move(A("LON"), "NWY", True)),
    ("F spa(sc) - wes", Move(F("SPA/SC"), "WES")),
    ("F StP/SC", Hold(F("STP/SC"))),
    ("A Mar S A Par-Bur", SupportMove(A("MAR"), "PAR", "BUR")),
    ("A Bur H", Hold(A("BUR"))),
    ("build F stp/nc", Build(F("STP/NC"))),
    ("remove A war", Remove(A("WAR"))),
    ("waive", Waive()),
]


@pytest.mark.parametrize("text, expected", ISSUE_EXAMPLES, ids=[t for t, _ in ISSUE_EXAMPLES])
def test_issue_examples(text: str, expected: object) -> None:
    assert parse(text) == expected


# -- full names and aliases --------------------------------------------------------

NAMES = [
    ("F Gulf of Lyon - Spain (south coast)", Move(F("LYO"), "SPA/SC")),
    ("F Gulf of Lyons H", Hold(F("LYO"))),
    ("F Mid-Atlantic Ocean - Spain/NC", Move(F("MAO"), "SPA/NC")),
    ("F Mid Atlantic Ocean - Brest", Move(F("MAO"), "BRE")),
    ("F midatlantic - spa nc", Move(F("MAO"), "SPA/NC")),
    ("F St. Petersburg (north coast) - Barents Sea", Move(F("STP/NC"), "BAR")),
    ("F St Petersburg south coast - Gulf of Bothnia", Move(F("STP/SC"), "BOT")),
    ("F st.petersburg/nc H", Hold(F("STP/NC"))),
    ("Fleet Barents Sea - St. Petersburg (north coast)", Move(F("BAR"), "STP/NC")),
    ("F north atlantic - clyde", Move(F("NAO"), "CLY")),
    ("F North Atlantic Ocean - Norwegian Sea", Move(F("NAO"), "NWG")),
    ("F English Channel - Mid-Atlantic Ocean", Move(F("ENG"), "MAO")),
    ("F North Sea convoys Army London to Norway", Convoy(F("NTH"), "LON", "NWY")),
    ("Army Burgundy Stands", Hold(A("BUR"))),
    ("A Burgandy - Munich", Move(A("BUR"), "MUN")),  # a listed alias of Burgundy
    ("A Paris - Burgundy", Move(A("PAR"), "BUR")),
    ("Army Munich supports Army Paris - Burgundy", SupportMove(A("MUN"), "PAR", "BUR")),
    ("Build fleet St. Petersburg (north coast)", Build(F("STP/NC"))),
    ("remove army warsaw", Remove(A("WAR"))),
]


@pytest.mark.parametrize("text, expected", NAMES, ids=[t for t, _ in NAMES])
def test_full_names_and_aliases(text: str, expected: object) -> None:
    assert parse(text) == expected


def _variant_names() -> list[Any]:
    """Every province name, id and alias of variants/standard, and every coast alias."""
    with (VARIANTS_DIR / "standard" / "variant.toml").open("rb") as handle:
        data = tomllib.load(handle)
    params = []
    for pid, prov in sorted(data["provinces"].items()):
        for name in [prov["name"], pid, *prov.get("aliases", [])]:
            params.append(pytest.param(name, pid, id=f"{pid}:{name}"))
        for coast, cdata in sorted(prov.get("coasts", {}).items()):
            location = f"{pid}/{coast}"
            for name in [f"{pid}/{coast}", f"{prov['name']} ({cdata['name']})", *cdata.get("aliases", [])]:
                params.append(pytest.param(name, location, id=f"{location}:{name}"))
    return params


@pytest.mark.parametrize("name, location", _variant_names())
def test_every_variant_name_is_understood(name: str, location: str) -> None:
    unit_type = "F" if "/" in location or MAP.provinces[location].terrain.value == "sea" else "A"
    assert parse(f"{unit_type} {name} H") == Hold(Unit(unit_type, location))
    source = "F MAO" if unit_type == "F" else "A PAR"
    assert parse(f"{source} - {name}").target == location


# -- case and punctuation ----------------------------------------------------------

PAR_BUR = [
    "a par-bur",
    "A PAR-BUR",
    "a PaR - bUr",
    "  A   Par   -   Bur  ",
    "A Par-Bur.",
    "A Par-Bur;",
    "A PAR-BUR!",
    "A. Par - Bur.",
    "a: par - bur",
    "A Par->Bur",
    "A Par => Bur",
    "A Par > Bur",
    "A Par – Bur",
    "A Par → Bur",
    "A Par to Bur",
    "A Par moves Bur",
    "A Par move to Bur",
    "A Par m Bur",
    "A Par attacks Bur",
    "A Par Bur",
    "ARMY PARIS - BURGUNDY",
    "army paris-burgundy",
]


@pytest.mark.parametrize("text", PAR_BUR)
def test_case_and_punctuation_insensitive(text: str) -> None:
    assert parse(text) == Move(A("PAR"), "BUR")


SPELLINGS = [
    # via convoy
    ("A Lon-Nwy via convoy", Move(A("LON"), "NWY", True)),
    ("A LON - NWY VIA", Move(A("LON"), "NWY", True)),
    ("A Lon - Nwy VIA CONVOY.", Move(A("LON"), "NWY", True)),
    ("a lon - nwy by convoy", Move(A("LON"), "NWY", True)),
    ("A Lon - Nwy by sea", Move(A("LON"), "NWY", True)),
    ("A Lon - Nwy via c", Move(A("LON"), "NWY", True)),
    ("A Lon - Nwy (via convoy)", Move(A("LON"), "NWY", True)),
    ("A Lon - Nth - Nwy", Move(A("LON"), "NWY", True)),  # a convoy path spelt out (DATC 4.A.6)
    ("A Lon - Nwy", Move(A("LON"), "NWY", False)),
    # support
    ("A Mar S A Par-Bur", SupportMove(A("MAR"), "PAR", "BUR")),
    ("A Mar supports A Par - Bur", SupportMove(A("MAR"), "PAR", "BUR")),
    ("A Mar SUP A Par-Bur", SupportMove(A("MAR"), "PAR", "BUR")),
    ("A Mar s par - bur", SupportMove(A("MAR"), "PAR", "BUR")),
    ("A Mar Support A Par Move Bur", SupportMove(A("MAR"), "PAR", "BUR")),
    ("A Mar S A Bur", SupportHold(A("MAR"), "BUR")),
    ("A Mar S A Bur H", SupportHold(A("MAR"), "BUR")),
    ("A Mar supports Burgundy", SupportHold(A("MAR"), "BUR")),
    ("A Mar supports A Bur hold", SupportHold(A("MAR"), "BUR")),
    ("F Lyo S F Spa(sc) - Mar", SupportMove(F("LYO"), "SPA", "MAR")),
    # convoy
    ("F nth c a lon-nwy", Convoy(F("NTH"), "LON", "NWY")),
    ("F NTH C A LON - NWY", Convoy(F("NTH"), "LON", "NWY")),
    ("F NTH convoys A Lon - Nwy", Convoy(F("NTH"), "LON", "NWY")),
    ("F NTH CVY A LON-NWY", Convoy(F("NTH"), "LON", "NWY")),
    ("F nth convoy lon - nwy", Convoy(F("NTH"), "LON", "NWY")),
    ("F nth transports a lon to nwy", Convoy(F("NTH"), "LON", "NWY")),
    # hold
    ("A Bur H", Hold(A("BUR"))),
    ("A Bur holds", Hold(A("BUR"))),
    ("A Bur HOLD.", Hold(A("BUR"))),
    ("A Bur stands", Hold(A("BUR"))),
    ("A Bur", Hold(A("BUR"))),
    ("Army Burgundy Stands", Hold(A("BUR"))),
    # coasts of the ordered unit
    ("F spa(sc) - wes", Move(F("SPA/SC"), "WES")),
    ("F spa/sc - wes", Move(F("SPA/SC"), "WES")),
    ("F SPA/SC - WES", Move(F("SPA/SC"), "WES")),
    ("F spa sc - wes", Move(F("SPA/SC"), "WES")),
    ("F Spain south coast - wes", Move(F("SPA/SC"), "WES")),
    ("F spa (south coast) - wes", Move(F("SPA/SC"), "WES")),
    ("F StP(sc)", Hold(F("STP/SC"))),
    ("F STP (SC)", Hold(F("STP/SC"))),
    # retreats and adjustments
    ("A par r bur", Retreat(A("PAR"), "BUR")),
    ("A Par retreats to Bur", Retreat(A("PAR"), "BUR")),
    ("A Par disband", Disband(A("PAR"))),
    ("A par d", Disband(A("PAR"))),
    ("build A par", Build(A("PAR"))),
    ("BUILD ARMY PARIS", Build(A("PAR"))),
    ("B F stp/nc", Build(F("STP/NC"))),
    ("disband A war", Remove(A("WAR"))),
    ("REMOVE A WAR", Remove(A("WAR"))),
    ("WAIVE", Waive()),
    ("build waive", Waive()),
]


@pytest.mark.parametrize("text, expected", SPELLINGS, ids=[t for t, _ in SPELLINGS])
def test_spellings(text: str, expected: object) -> None:
    assert parse(text) == expected


# -- unreadable lines: a reason, never a crash -------------------------------------

UNREADABLE = [
    ("", "empty"),
    ("   ", "empty"),
    ("A Par -", "destination"),
    ("F nth c a lon", "destination"),
    ("A Burgundi - Par", "unknown"),
    ("A Par - Bur please", "please"),
]


@pytest.mark.parametrize("text, words", UNREADABLE, ids=[t or "<empty>" for t, _ in UNREADABLE])
def test_unreadable_lines_say_why(text: str, words: str) -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        parse(text)
    assert words in str(caught.value).lower()


# -- rejected lines through check_orders on the initial standard position ------------

INITIAL = jsonapi.initial_state("standard")
MAO_FLEET = {**INITIAL, "units": {**INITIAL["units"], "FRANCE": ["F MAO", "A MAR", "A PAR"]}}

REJECTED = [
    # (state, power, line, words the message must contain (all, case-insensitive))
    (INITIAL, "FRANCE", "A Burgundi - Par", ["unknown", "burgundi", "did you mean burgundy"]),
    (INITIAL, "FRANCE", "A Par - Burgundi", ["unknown", "burgundi", "did you mean burgundy"]),
    (INITIAL, "GERMANY", "A Mun - Bohemai", ["unknown", "bohemai", "did you mean bohemia"]),
    (INITIAL, "FRANCE", "A Pic - Bur", ["no unit at", "pic"]),
    (INITIAL, "GERMANY", "A Ber - Par", ["army at berlin cannot reach paris"]),
    (INITIAL, "ENGLAND", "A Par - Bur", ["not yours"]),
    (INITIAL, "GERMANY", "A Par - Bur", ["not yours"]),
    (INITIAL, "FRANCE", "F Bre - Bur", ["fleets cannot move to burgundy"]),
    (INITIAL, "FRANCE", "F Bre - Burgundy", ["fleets cannot move to burgundy"]),
    (INITIAL, "FRANCE", "A Par - ENG", ["armies cannot move to english channel"]),
    (INITIAL, "FRANCE", "A Mar - Gulf of Lyon", ["armies cannot move to gulf of lyon"]),
    (INITIAL, "ENGLAND", "A Lvp - Iri", ["armies cannot move to irish sea"]),
    (MAO_FLEET, "FRANCE", "F MAO - SPA", ["spain needs a coast", "spa/nc", "spa/sc"]),
    (MAO_FLEET, "FRANCE", "F Mid-Atlantic Ocean - Spain", ["spain needs a coast", "spa/nc", "spa/sc"]),
    (INITIAL, "FRANCE", "A Par - Swi", ["impassable"]),
    (INITIAL, "FRANCE", "build A par", ["another phase"]),
]


@pytest.mark.parametrize(
    "state, power, line, words", REJECTED, ids=[f"{p}:{line}" for _s, p, line, _w in REJECTED]
)
def test_rejected_lines_have_player_readable_reasons(state: dict, power: str, line: str, words: list[str]) -> None:
    [check] = jsonapi.check_orders(state, power, [line])
    assert check["line"] == line
    assert check["ok"] is False
    assert check["order"] is None
    message = (check["error"] or "").lower()
    for word in words:
        assert word in message, f"{line!r}: {check['error']!r} should mention {word!r}"


@pytest.mark.parametrize("line", ["A Burgundi - Par", "A Par - Burgundi"])
def test_unknown_province_quotes_only_the_name(line: str) -> None:
    """The message quotes the misspelt name, not the unit letter before it."""
    [check] = jsonapi.check_orders(INITIAL, "FRANCE", [line])
    assert "'Burgundi'" in check["error"], check["error"]


ACCEPTED = [
    (INITIAL, "FRANCE", "A Par - Burgandy", "A PAR - BUR"),
    (INITIAL, "FRANCE", "Army Paris moves to Burgundy", "A PAR - BUR"),
    (INITIAL, "FRANCE", "A Mar S A Par-Bur", "A MAR S PAR - BUR"),
    (INITIAL, "FRANCE", "F Bre - Mid-Atlantic Ocean", "F BRE - MAO"),
    (INITIAL, "FRANCE", "Par - Bur", "A PAR - BUR"),  # unit type omitted (DATC 4.C.1)
    (INITIAL, "FRANCE", "F Par - Bur", "A PAR - BUR"),  # wrong unit type (DATC 4.C.2)
    (INITIAL, "RUSSIA", "F StP/SC - Bot", "F STP/SC - BOT"),
    (INITIAL, "RUSSIA", "F StP - Bot", "F STP/SC - BOT"),  # the unit's coast may be omitted
    (INITIAL, "TURKEY", "F Ank - Black Sea", "F ANK - BLA"),
    (MAO_FLEET, "FRANCE", "F MAO - Spain (north coast)", "F MAO - SPA/NC"),
    (MAO_FLEET, "FRANCE", "F Mid-Atlantic Ocean - spa/sc", "F MAO - SPA/SC"),
]


@pytest.mark.parametrize(
    "state, power, line, order", ACCEPTED, ids=[f"{p}:{line}" for _s, p, line, _o in ACCEPTED]
)
def test_accepted_lines_normalise(state: dict, power: str, line: str, order: str) -> None:
    [check] = jsonapi.check_orders(state, power, [line])
    assert check == {"line": line, "ok": True, "order": order, "unit": order.split(" - ")[0].split(" S ")[0].removesuffix(" H"), "error": None}


UNIT_OF_REJECTED = [
    # docs/engine-api.md: "unit" is the ordered unit, also for a rejected line, so
    # per-unit replacement works.
    ("FRANCE", "F Bre - Burgundy", "F BRE"),
    ("FRANCE", "A Par - ENG", "A PAR"),
    ("FRANCE", "A Mar - Gulf of Lyon", "A MAR"),
]


@pytest.mark.parametrize("power, line, unit", UNIT_OF_REJECTED, ids=[line for _p, line, _u in UNIT_OF_REJECTED])
def test_rejected_line_names_its_unit(power: str, line: str, unit: str) -> None:
    [check] = jsonapi.check_orders(INITIAL, power, [line])
    assert check["ok"] is False
    assert check["unit"] == unit, check
