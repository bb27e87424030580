"""Units and centres: type by shape, power by colour AND letter, on the right coast."""

from __future__ import annotations

import pytest

from app import jsonapi
from app.maps import render_svg
from app.variants import load_variant
from tests.maps.test_render_grid import SVG, classes, drawing_for, groups, parse, texts, title_of

VARIANTS = ["standard", "zeus5", "smallworld8", "smallworld7"]


def _svg(variant: str, position: dict | None) -> str:
    return render_svg(variant, position, drawing=drawing_for(variant))


@pytest.mark.parametrize(
    ("variant", "power", "unit", "type_class", "shapes", "letter"),
    [
        ("standard", "FRANCE", "A PAR", "type-a", ["army"], "F"),
        ("standard", "ENGLAND", "F LON", "type-f", ["fleet"], "E"),
        ("standard", "RUSSIA", "F STP/SC", "type-f", ["fleet"], "R"),
        ("smallworld8", "WESTERN_EUROPE", "A/F NTH", "type-af", ["fleet", "army"], "W"),
        ("smallworld8", "NEUTRAL", "A IND", "type-a", ["army"], "–"),
        ("zeus5", "USA", "F NYK", "type-f", ["fleet"], "A"),
    ],
)
def test_every_unit_type_is_drawn_by_shape_with_its_power_letter(variant, power, unit, type_class, shapes, letter):
    root = parse(_svg(variant, {"variant": variant, "phase": load_variant(variant).start_phase.__str__(),
                                "units": {power: [unit]}, "centers": {}}))
    (drawn,) = groups(root, "unit")
    assert type_class in classes(drawn)
    assert f"power-{power.lower()}" in classes(drawn)
    assert sorted(c for e in drawn.iter() for c in classes(e) if c in ("army", "fleet")) == sorted(shapes)
    assert letter in texts(drawn)
    assert unit.split()[1].split("/")[0] in title_of(drawn)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_power_s_units_and_centres_carry_its_letter(variant):
    """Colour is never the only sign: letters alone tell the powers apart."""
    info = load_variant(variant)
    letters = {p.id: p.letter for p in info.powers}
    assert len(set(letters.values())) == len(letters), "two powers share a letter"
    position = jsonapi.initial_state(variant)
    if set(position["units"]) <= {"NEUTRAL"}:  # Zeus 5 starts with builds: one unit each
        position = {**position, "phase": "S1940M", "units": {p.id: [f"A {p.home[0]}"] for p in info.powers}}
    root = parse(_svg(variant, position))
    seen = set()
    for drawn in groups(root, "unit"):
        power = next(c.removeprefix("power-").upper() for c in classes(drawn) if c.startswith("power-"))
        if power == "NEUTRAL":
            continue
        assert letters[power] in texts(drawn), title_of(drawn)
        assert info.power(power).name in title_of(drawn)
        seen.add(power)
    assert seen == set(letters)
    owned = groups(root, "owned")
    assert len(owned) == sum(len(p.centres) for p in info.powers)
    for centre in owned:
        owner = next(c.removeprefix("owner-").upper() for c in classes(centre) if c.startswith("owner-"))
        assert texts(centre) == [letters[owner]]
    centres = {pid for pid, p in info.map.provinces.items() if p.centre}
    assert len(groups(root, "centre")) == len(centres)
    assert len(groups(root, "unowned")) == len(centres) - len(owned)


def _letter_xy(root, cls: str) -> tuple[float, float]:
    (drawn,) = groups(root, cls)
    letter = next(t for t in drawn.iter(f"{SVG}text") if "letter" in classes(t))
    return float(letter.attrib["x"]), float(letter.attrib["y"])


@pytest.mark.parametrize("coast", ["NC", "SC"])
def test_a_fleet_stands_on_its_coast(coast):
    drawing = drawing_for("standard")
    root = parse(render_svg("standard", {"units": {"RUSSIA": [f"F STP/{coast}"]}, "centers": {}}, drawing=drawing))
    assert _letter_xy(root, "unit") == pytest.approx(drawing.provinces["STP"].coasts[coast].unit, abs=0.06)


def test_an_army_stands_on_its_province_anchor():
    drawing = drawing_for("standard")
    root = parse(render_svg("standard", {"units": {"FRANCE": ["A PAR"]}, "centers": {}}, drawing=drawing))
    assert _letter_xy(root, "unit") == pytest.approx(drawing.provinces["PAR"].unit, abs=0.06)


def test_dislodged_unit_is_drawn_aside_and_marked():
    drawing = drawing_for("standard")
    position = {"phase": "F1901R", "units": {"ENGLAND": ["A HOL"]}, "centers": {},
                "dislodged": {"GERMANY": {"A HOL": {"attacker_from": "BEL", "retreats": ["KIE", "RUH"]}}}}
    root = parse(render_svg("standard", position, drawing=drawing))
    (aside,) = groups(root, "dislodged")
    x, y = _letter_xy(root, "power-germany")
    anchor = drawing.provinces["HOL"].unit
    assert (x, y) != pytest.approx(anchor) and abs(x - anchor[0]) < 40 and abs(y - anchor[1]) < 40
    assert "dislodged" in title_of(aside) and "KIE" in title_of(aside)
    assert len(groups(root, "retreat-option")) == 2
    assert _letter_xy(root, "power-england") == pytest.approx(anchor, abs=0.06)
