"""Every kind of order, and every outcome, leaves its own mark on the results map."""

from __future__ import annotations

import pytest

from app import jsonapi
from app.maps import render_svg
from app.maps.orders import read_order
from tests.maps.test_render_grid import classes, drawing_for, groups, parse, title_of

AUTUMN = {
    "variant": "standard", "phase": "F1901M",
    "units": {"ENGLAND": ["F NTH", "A YOR", "F ENG"], "FRANCE": ["A BEL", "A PIC", "A BUR", "F MAO"],
              "GERMANY": ["A HOL", "A MUN", "F KIE"]},
    "centers": {"ENGLAND": ["LON", "EDI", "LVP"], "FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BER", "MUN", "KIE"]},
    "orders": {"ENGLAND": ["F NTH C A YOR - HOL", "A YOR - HOL", "F ENG S F NTH"],
               "FRANCE": ["A BEL S A YOR - HOL", "A PIC - BEL", "A BUR - MUN", "F MAO - SPA/NC"],
               "GERMANY": ["A HOL H", "F KIE - DEN"]},
}
RETREATS = {
    "variant": "standard", "phase": "F1901R", "units": {"ENGLAND": ["A HOL", "F NTH"], "FRANCE": ["A MUN"]},
    "dislodged": {"GERMANY": {"A HOL": "YOR", "A MUN": "BUR"}},
    "orders": {"GERMANY": ["A HOL R KIE", "A MUN D"]},
}
WINTER = {
    "variant": "standard", "phase": "W1901A",
    "units": {"ENGLAND": ["F NTH"], "FRANCE": ["A PAR"], "GERMANY": ["A MUN", "A BER"]},
    "centers": {"ENGLAND": ["LON", "EDI", "LVP"], "FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN"]},
    "orders": {"ENGLAND": ["BUILD F LON", "BUILD A EDI"], "FRANCE": ["WAIVE", "BUILD A MAR"], "GERMANY": ["REMOVE A BER"]},
}
FERRY = {
    "variant": "smallworld8", "phase": "S02M",
    "units": {"WESTERN_EUROPE": ["A SPA", "F WMS", "A/F NWG", "A/F NTH"], "NEUTRAL": ["A IND"],
              "ISLAM": ["A PAK", "A AFG"]},
    "af_moves": {"NTH": 3},
    "orders": {"WESTERN_EUROPE": ["A SPA boards F WMS", "A/F NWG - SCA"], "ISLAM": ["A PAK - IND", "A AFG S A PAK - IND"]},
}


def _results_map(request: dict) -> tuple[str, dict]:
    result = jsonapi.adjudicate_request(request)
    assert "error" not in result, result["error"]
    position = {k: v for k, v in request.items() if k != "orders"}
    return render_svg(request["variant"], position, orders_result=result, drawing=drawing_for(request["variant"])), result


@pytest.mark.parametrize(
    ("request_", "mark", "words"),
    [
        (AUTUMN, "order-move", "England: A YOR – HOL"),
        (AUTUMN, "order-support-hold", "F ENG supports NTH"),
        (AUTUMN, "order-support-move", "France: A BEL supports YOR – HOL"),
        (AUTUMN, "order-convoy", "F NTH convoys YOR – HOL"),
        (AUTUMN, "order-hold", "Germany: A HOL holds"),
        (AUTUMN, "failed", "A PIC – BEL (fails: bounce)"),
        (AUTUMN, "failed", "A BUR – MUN (fails: bounce)"),
        (AUTUMN, "dislodged", "Army (A HOL) of Germany, dislodged (may retreat to KIE, RUH)"),
        (RETREATS, "order-retreat", "A HOL retreats to KIE"),
        (RETREATS, "order-disband", "Army (A MUN) of Germany, dislodged, disbanded"),
        (WINTER, "order-build", "Fleet (F LON) of England, built"),
        (WINTER, "order-remove", "Army (A BER) of Germany, removed"),
        (WINTER, "order-waive", ""),
        (FERRY, "order-board", "A SPA boards the fleet in WMS"),
        (FERRY, "order-land", "A/F NWG – SCA (lands)"),
        (FERRY, "destroyed", "Army (A IND) of Neutral, destroyed"),
        (FERRY, "army-lost", "Army/Fleet (A/F NTH) of Western Europe, its army is lost at sea"),
    ],
)
def test_every_order_kind_leaves_its_mark(request_, mark, words):
    svg, _ = _results_map(request_)
    root = parse(svg)
    marked = groups(root, mark)
    assert marked, f"no {mark} on the map"
    described = [title_of(m) for m in marked] + [title_of(p) for m in marked for p in root.iter() if m in list(p)]
    assert any(words.lower() in t.lower() for t in described), described


def test_failed_orders_are_dashed_and_crossed_and_successful_ones_are_not():
    root = parse(_results_map(AUTUMN)[0])
    for order in groups(root, "order"):
        lines = [e for e in order.iter() if e.get("stroke-dasharray")]
        crossed = groups(order, "fail-cross")
        if "failed" in classes(order):
            assert lines, title_of(order)
            assert crossed or "order-hold" in classes(order), title_of(order)  # a failed hold: its unit is dislodged
        else:
            assert not crossed, title_of(order)


def test_a_position_map_draws_no_orders():
    request = {k: v for k, v in AUTUMN.items() if k != "orders"}
    root = parse(render_svg("standard", request, drawing=drawing_for("standard")))
    assert not groups(root, "order")


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("A PAR H", ("hold", "A PAR", ())),
        ("A YOR - HOL VIA", ("move", "A YOR", ("HOL",))),
        ("F MAO - SPA/NC", ("move", "F MAO", ("SPA/NC",))),
        ("F ENG S F NTH", ("support-hold", "F ENG", ("NTH",))),
        ("A BEL S A YOR - HOL", ("support-move", "A BEL", ("YOR", "HOL"))),
        ("F NTH C A YOR - HOL", ("convoy", "F NTH", ("YOR", "HOL"))),
        ("A SPA BOARDS F WMS", ("board", "A SPA", ("WMS",))),
        ("A/F NTH - NWG - SCA", ("land", "A/F NTH", ("NWG", "SCA"))),
        ("A HOL R KIE", ("retreat", "A HOL", ("KIE",))),
        ("A MUN D", ("disband", "A MUN", ())),
        ("BUILD F NYK/CAL", ("build", "F NYK/CAL", ())),
        ("REMOVE A BER", ("remove", "A BER", ())),
        ("WAIVE", ("waive", "", ())),
        ("", None),
        ("A PAR - ", None),
        ("<script>", None),
    ],
)
def test_normalized_orders_read_back(text, read):
    assert read_order(text) == read


def test_waived_builds_get_a_legend_row_of_their_own():
    """The list of powers that waived a build sits under the key, never on its row."""
    svg, _ = _results_map(WINTER)
    (legend,) = groups(parse(svg), "legend")
    texts = list(legend.iter("{http://www.w3.org/2000/svg}text"))
    (waived,) = [t for t in texts if "order-waive" in classes(t)]
    assert waived.text == "Waived builds: France"
    key_rows = {float(t.attrib["y"]) for t in texts if t.text in ("army", "– neutral", "move", "× removed, disbanded or destroyed")}
    assert float(waived.attrib["y"]) > max(key_rows)
    height = float(parse(svg).attrib["height"])
    assert float(waived.attrib["y"]) < height


# Two dislodged units retreat to the same province: both bounce and are destroyed (issue 28.18).
STANDOFF = {
    "variant": "standard", "phase": "F1901R", "units": {"ENGLAND": ["A BUR", "F SWE"]},
    "dislodged": {"GERMANY": {"A RUH": "BUR"}, "FRANCE": {"F DEN": "SWE"}},
    "orders": {"GERMANY": ["A RUH R KIE"], "FRANCE": ["F DEN R KIE"]},
}


def test_units_destroyed_in_a_retreat_standoff_are_crossed_not_drawn_standing_aside():
    svg, result = _results_map(STANDOFF)
    assert {o["reason"] for o in result["orders"]} == {"standoff"}
    root = parse(svg)
    for unit, power in (("A RUH", "Germany"), ("F DEN", "France")):
        (drawn,) = [g for g in groups(root, "unit") if f"({unit})" in title_of(g)]
        assert "mark-destroyed" in classes(drawn) and "dislodged" not in classes(drawn), classes(drawn)
        assert groups(drawn, "destroyed"), f"{unit} is not crossed"
        assert not groups(drawn, "dislodged-ring")
        assert title_of(drawn) == f"{'Army' if unit[0] == 'A' else 'Fleet'} ({unit}) of {power}, dislodged, its retreat " \
                                  "to KIE bounced: destroyed"
    # the retreats themselves are drawn failed (dashed and crossed), as every failed order is
    failed = [g for g in groups(root, "order-retreat") if "failed" in classes(g)]
    assert len(failed) == 2 and all(groups(g, "fail-cross") for g in failed)
