"""The picture as a whole: well-formed, escaped, with its legend; the PNG at 1,000 px and up."""

from __future__ import annotations

import struct

import pytest

from app import jsonapi
from app.maps import phase_map_png, render_png, render_svg
from app.maps.drawing import DrawingError, drawing_from_data
from tests.maps.test_render_grid import SVG, classes, drawing_for, groups, parse, texts

NASTY = "<script>alert('x')</script> & \"quotes\" ]]> <!-- -->"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_every_text_is_escaped():
    svg = render_svg("standard", None, title=NASTY, drawing=drawing_for("standard"))
    root = parse(svg)  # well-formed despite the title
    assert NASTY in texts(root)
    assert "<script>" not in svg
    assert root.findtext(f"{SVG}title", "").startswith(NASTY)


def test_the_legend_names_game_phase_and_each_power_with_its_centres():
    svg = render_svg("standard", jsonapi.initial_state("standard"), title="Game demo", drawing=drawing_for("standard"))
    (legend,) = groups(parse(svg), "legend")
    words = texts(legend)
    assert "Game demo" in words
    assert "Spring 1901 movement · position" in words
    for name in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        assert name in words
    assert words.count("3 SC · 3 units") == 6 and words.count("4 SC · 4 units") == 1


def test_centre_counts_follow_the_position():
    position = {"units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR", "BRE", "MAR", "SPA", "POR"]}}
    (legend,) = groups(parse(render_svg("standard", position, drawing=drawing_for("standard"))), "legend")
    assert "5 SC · 1 units" in texts(legend)
    assert "0 SC · 0 units" in texts(legend)


@pytest.mark.parametrize("variant", ["standard", "zeus5", "smallworld8", "smallworld7"])
def test_png_is_at_least_1000_pixels_wide(variant):
    svg = render_svg(variant, jsonapi.initial_state(variant), drawing=drawing_for(variant))
    width, height = png_size(render_png(svg))
    assert width >= 1000 and height > 300


def test_png_width_is_never_below_1000():
    svg = render_svg("standard", None, drawing=drawing_for("standard"))
    assert png_size(render_png(svg, 400))[0] == 1000
    assert png_size(render_png(svg, 1600))[0] == 1600


def test_phase_map_png_is_the_results_map(monkeypatch):
    monkeypatch.setattr("app.maps.render.load_drawing", drawing_for)
    state = jsonapi.initial_state("standard")
    result = jsonapi.adjudicate_request({**state, "orders": {"FRANCE": ["A PAR - BUR"]}})
    with_results = phase_map_png("standard", state, result, title="demo")
    position = phase_map_png("standard", state, None)
    assert png_size(with_results)[0] >= 1000
    assert with_results != position


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"format": 2}, "format"),
        ({"format": 1, "width": 10, "height": 10, "provinces": {"PAR": {"kind": "lake", "shape": []}}}, "kind"),
        ({"format": 1, "width": 10, "height": 10, "provinces": {"PAR": {"kind": "land", "shape": [[[[0, 0], [1, 1]]]],
                                                                         "label": [0, 0]}}}, "three points"),
        ({"format": 1, "width": 10, "height": 10, "provinces": {"PAR": {"kind": "land", "shape": [[[[0, 0], [1, 1], [0, 1]]]],
                                                                         "label": "middle"}}}, "[x, y]"),
    ],
)
def test_a_bad_drawing_is_refused_with_a_reason(data, message):
    with pytest.raises(DrawingError, match=message.replace("[", r"\[").replace("]", r"\]")):
        drawing_from_data(data)


def _square(size: float, **extra: object) -> dict:
    return {"kind": "land", "shape": [[[[0, 0], [size, 0], [size, size], [0, size]]]], "label": [size / 2, size / 2],
            "unit": [size / 2, size * 0.85], **extra}


@pytest.mark.parametrize(
    ("province", "fits"),
    [
        (_square(300), True),
        (_square(30), False),  # too small for "Burgundy"
        (_square(30, name_label=[15, 25]), True),  # the drawing says where
    ],
)
def test_full_names_only_where_they_fit(province, fits):
    from app.maps.fit import name_spot

    drawing = drawing_from_data({"format": 1, "width": 1000, "height": 1000, "provinces": {"BUR": province}})
    assert (name_spot(drawing.provinces["BUR"], "Burgundy", 8.5, 9.5) is not None) == fits


def test_seven_player_small_world_has_no_hawaii_centre():
    seven = parse(render_svg("smallworld7", None, drawing=drawing_for("smallworld7")))
    eight = parse(render_svg("smallworld8", None, drawing=drawing_for("smallworld8")))
    def hawaii(root):
        return [c for c in groups(root, "centre") if c.findtext(f"{SVG}title", "").startswith("HAW:")]
    assert not hawaii(seven) and len(hawaii(eight)) == 1


def test_a_winner_is_named_in_the_legend():
    result = jsonapi.adjudicate_request({**jsonapi.initial_state("standard"), "orders": {}})
    (legend,) = groups(parse(render_svg("standard", None, orders_result={**result, "winner": "FRANCE"},
                                        drawing=drawing_for("standard"))), "legend")
    assert "France wins" in texts(legend)
    (legend,) = groups(parse(render_svg("standard", None, orders_result=result, drawing=drawing_for("standard"))), "legend")
    assert not any("wins" in t for t in texts(legend))


@pytest.mark.parametrize(("variant", "drawn"), [("standard", True), ("zeus5", True), ("smallworld7", True),
                                               ("smallworld8", True), ("dod3", False), ("nope", False)])
def test_which_variants_have_a_map(variant, drawn):
    from app.maps import has_drawing

    assert has_drawing(variant) is drawn


def test_background_land_is_drawn_under_the_provinces():
    grid = drawing_for("standard")
    from dataclasses import replace

    with_land = replace(grid, background_land=(((((0.0, 0.0), (50.0, 0.0), (50.0, 50.0)),)),))
    root = parse(render_svg("standard", None, drawing=with_land))
    order = [e for e in root.iter() if {"background", "province"} & classes(e)]
    assert "background" in classes(order[0]) and all("province" in classes(e) for e in order[1:])
    without = replace(grid, background_land=())
    assert not groups(parse(render_svg("standard", None, drawing=without)), "background")


@pytest.mark.parametrize("variant", ["standard", "zeus5", "smallworld8", "smallworld7"])
def test_type_reads_at_1000_pixels_wide_whatever_the_drawing_width(variant):
    """Sizes are chosen for the picture 1,000 px wide: scaled to that width, an abbreviation
    is 11 px and a full name 8.5 px tall, on every map (a wider drawing gets larger type)."""
    root = parse(render_svg(variant, jsonapi.initial_state(variant)))
    to_pixels = 1000 / float(root.attrib["width"])
    sizes = {
        kind: {round(float(t.attrib["font-size"]) * to_pixels, 1) for t in root.iter(f"{SVG}text") if t.get("class") == kind}
        for kind in ("abbr", "name")
    }
    assert sizes == {"abbr": {11.0}, "name": {8.5}}


def test_a_province_drawn_in_several_parts_is_labelled_on_each_listed_part():
    from dataclasses import replace

    grid = drawing_for("standard")
    nao = grid.provinces["NAO"]
    twice = replace(grid, provinces={**grid.provinces, "NAO": replace(nao, more_labels=((5.0, 6.0),))})
    root = parse(render_svg("standard", None, drawing=twice))
    placed = [(float(t.attrib["x"]), float(t.attrib["y"])) for t in root.iter(f"{SVG}text") if t.get("class") == "abbr" and t.text == "NAO"]
    assert placed == [nao.label, (5.0, 6.0)]
