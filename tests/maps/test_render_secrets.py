"""Hidden information is never drawn: Zeus 5's secret build site, Small World's hidden starts."""

from __future__ import annotations

import pytest

from app import jsonapi
from app.maps import render_svg
from tests.maps.test_render_grid import SVG, classes, drawing_for, groups, parse, title_of

USA_BUILDS = {"NYK": ["BUILD A WAS", "BUILD A HAW", "BUILD F NYK"], "CAL": ["BUILD A WAS", "BUILD A HAW", "BUILD F CAL"]}


def _zeus_winter(site: str) -> tuple[dict, dict]:
    state = jsonapi.initial_state("zeus5")
    result = jsonapi.adjudicate_request({**state, "orders": {"USA": USA_BUILDS[site]}})
    assert result["hidden"], "the engine marks the build as secret"
    return state, result


def _svg(variant: str, position: dict | None, result: dict | None = None) -> str:
    return render_svg(variant, position, orders_result=result, drawing=drawing_for(variant))


def test_zeus5_hidden_build_site_is_not_drawn_on_its_results_map():
    maps = {site: _svg("zeus5", *_zeus_winter(site)) for site in USA_BUILDS}
    assert maps["NYK"] == maps["CAL"], "the map tells where the USA built"
    root = parse(maps["NYK"])
    (secret,) = [u for u in groups(root, "unit") if "F NYK/CAL" in title_of(u)]
    assert "mark-built" in classes(secret)
    drawing = drawing_for("zeus5")
    letters = [(float(t.attrib["x"]), float(t.attrib["y"])) for t in secret.iter(f"{SVG}text") if "letter" in classes(t)]
    assert sorted(letters) == sorted([drawing.provinces["NYK"].unit, drawing.provinces["CAL"].unit])
    for text in ("F NYK ", "F NYK<", "F CAL", "BUILD F NYK\"", "(F NYK)"):
        assert text not in maps["NYK"]


def test_zeus5_hidden_build_stays_secret_on_the_next_position_map():
    positions = {site: jsonapi.next_state(_zeus_winter(site)[1], "zeus5") for site in USA_BUILDS}
    assert positions["NYK"]["units"] != positions["CAL"]["units"]  # the stored states do differ
    maps = {site: _svg("zeus5", position) for site, position in positions.items()}
    assert maps["NYK"] == maps["CAL"]
    assert "F NYK/CAL" in maps["NYK"]


def test_zeus5_build_site_revealed_with_the_spring_1940_results():
    state = jsonapi.next_state(_zeus_winter("CAL")[1], "zeus5")
    result = jsonapi.adjudicate_request({**state, "orders": {"USA": ["F CAL H"]}})
    root = parse(_svg("zeus5", state, result))
    (fleet,) = [u for u in groups(root, "unit") if "type-f" in classes(u) and "power-usa" in classes(u)]
    assert "(F CAL)" in title_of(fleet)
    assert "NYK/CAL" not in title_of(fleet)


HIDDEN_STARTS = [("ISLAM", "ARA", "F ARA/EC"), ("RUSSIA", "LEN", "F LEN/SC"), ("WESTERN_EUROPE", "FRA", "F FRA/NC")]


@pytest.mark.parametrize("variant", ["smallworld8", "smallworld7"])
def test_small_world_hidden_starts_are_drawn_undeclared(variant):
    svg = _svg(variant, jsonapi.initial_state(variant))
    root = parse(svg)
    drawing = drawing_for(variant)
    for power, province, unit in HIDDEN_STARTS:
        assert unit.split()[1] not in svg, f"{unit}'s coast shows"
        (drawn,) = [u for u in groups(root, "unit") if f"F {province})" in title_of(u)]
        assert "not declared" in title_of(drawn)
        letter = next(t for t in drawn.iter(f"{SVG}text") if "letter" in classes(t))
        assert (float(letter.attrib["x"]), float(letter.attrib["y"])) == pytest.approx(drawing.provinces[province].unit)
    (china,) = [u for u in groups(root, "unit") if "PEK" in title_of(u)]
    assert "type-undeclared" in classes(china)
    assert "Army" not in title_of(china) and "Fleet" not in title_of(china)
    assert "A PEK" not in svg


def test_small_world_hidden_starts_revealed_by_the_spring_01_results():
    state = jsonapi.initial_state("smallworld8")
    result = jsonapi.adjudicate_request({**state, "orders": {"ISLAM": ["F ARA/WC H"], "CHINA": ["F PEK H"]}})
    root = parse(_svg("smallworld8", state, result))
    (islam,) = [u for u in groups(root, "unit") if "ARA" in title_of(u)]
    assert "F ARA/WC" in title_of(islam)
    (china,) = [u for u in groups(root, "unit") if "PEK" in title_of(u)]
    assert "type-f" in classes(china)
    # The next position shows what the results revealed.
    after = _svg("smallworld8", jsonapi.next_state(result, "smallworld8"))
    assert "F ARA/WC" in after and "type-undeclared" not in after
