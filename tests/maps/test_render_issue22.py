"""Issue 22.14: a unit destroyed for lack of a retreat is drawn crossed (destroyed), not as a
dislodged unit waiting to retreat; the legend counts units and centres as the results text
does; no arrow covers a province's name."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app import jsonapi
from app.maps import load_drawing, render_svg
from app.services.results.report import Names, build_results_view
from app.services.ruleset import engine as game_engine
from app.services.ruleset.powers import PowerBook
from app.services.ruleset.stored import stored_result, stored_state
from app.variants import load_variant
from tests.maps.test_render_grid import SVG, classes, drawing_for, groups, parse, title_of


def _results_svg(variant: str, request: dict[str, Any], *, real: bool = False) -> tuple[str, dict[str, Any]]:
    result = jsonapi.adjudicate_request(request)
    assert "error" not in result, result
    state = {k: v for k, v in request.items() if k != "orders"}
    drawing = load_drawing(variant) if real else drawing_for(variant)
    return render_svg(variant, state, orders_result=result, drawing=drawing), result


# -- destroyed for lack of a retreat ---------------------------------------------------------------

NO_RETREAT: dict[str, Any] = {  # a JSON request
    "variant": "standard", "phase": "F1901M",
    "units": {"GERMANY": ["A HOL", "A RUH", "A KIE"], "FRANCE": ["A BEL", "F NTH"]},
    "orders": {"GERMANY": ["A HOL H", "A RUH H", "A KIE H"], "FRANCE": ["A BEL - HOL", "F NTH S A BEL - HOL"]},
}


def test_a_unit_with_no_retreat_is_drawn_destroyed_not_dislodged() -> None:
    svg, result = _results_svg("standard", NO_RETREAT)
    assert result["dislodged"]["GERMANY"]["A HOL"]["retreats"] == []
    root = parse(svg)
    [hol] = [g for g in groups(root, "unit") if "power-germany" in classes(g) and "HOL" in title_of(g)]
    assert "mark-destroyed" in classes(hol) and "dislodged" not in classes(hol)
    assert "destroyed" in title_of(hol) and "retreat" in title_of(hol)
    assert [e for e in hol.iter() if "destroyed" in classes(e) and e.tag == f"{SVG}path"], "no cross"
    assert not [e for e in hol.iter() if "dislodged-ring" in classes(e)]
    assert not groups(root, "retreat-option")
    legend = "".join(e.text or "" for e in groups(root, "legend")[0].iter())
    assert "× removed, disbanded or destroyed" in legend


def test_a_unit_that_can_retreat_is_still_drawn_dislodged() -> None:
    request = {**NO_RETREAT, "units": {**NO_RETREAT["units"], "GERMANY": ["A HOL", "A RUH"]},
               "orders": {**NO_RETREAT["orders"], "GERMANY": ["A HOL H", "A RUH H"]}}
    root = parse(_results_svg("standard", request)[0])
    [hol] = [g for g in groups(root, "unit") if "power-germany" in classes(g) and "HOL" in title_of(g)]
    assert "dislodged" in classes(hol) and "mark-destroyed" not in classes(hol)


# -- the legend counts what the text counts --------------------------------------------------------

ZEUS_FALL = {  # the USSR takes Poland (dislodging Germany's army, which may retreat) and Rumania
    "variant": "zeus5", "phase": "F1941M",
    "units": {"USSR": ["A MOS", "A LIT", "A STA"], "GERMANY": ["A POL", "A BER"]},
    "centers": {"USSR": ["MOS", "STA", "LEN"], "GERMANY": ["BER", "POL", "HAM"]},
    "orders": {"USSR": ["A MOS - POL", "A LIT S A MOS - POL", "A STA - RUM"], "GERMANY": ["A BER H", "A POL H"]},
}


def _small_world_winter() -> dict[str, Any]:
    """W01A of Small World: China's army dislodged in the Fall retreats with the Winter orders."""
    fall = {**jsonapi.initial_state("smallworld8"), "phase": "F01M",
            "units": {"CHINA": ["A MUK", "A PEK"], "RUSSIA": ["A VLA", "A IRK"]},
            "centers": {"CHINA": ["PEK", "CAN"], "RUSSIA": ["VLA", "MOS"]},
            "orders": {"CHINA": ["A PEK - MUK", "A MUK H"], "RUSSIA": ["A VLA - MUK", "A IRK S A VLA - MUK"]}}
    winter = jsonapi.next_state(jsonapi.adjudicate_request(fall), variant="smallworld8")
    assert winter["phase"] == "W01A" and winter["dislodged"]
    return {**winter, "orders": {"CHINA": ["A MUK - KOR"]}}


def _text_counts(variant: str, request: dict[str, Any], result: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Power name -> (centres, units) of the results text's centre chart."""
    info = jsonapi.variant_map(variant)
    engine_variant = game_engine.game_variant(variant, None)
    state = {k: v for k, v in request.items() if k != "orders"}
    view = build_results_view(
        game_name="g", variant=variant, judge_id="T", state_before=stored_state(state), result=stored_result(result),
        state_after=stored_state(jsonapi.next_state(result, variant=variant)), book=PowerBook(info), names=Names(info),
        deadline_text="", next_deadline_text="", nmr_powers=[],
        read_order=lambda text: game_engine.read_order(engine_variant, text))
    return {row["power"]: (row["centres"], row["units"]) for row in view.centre_chart}


def _legend_counts(variant: str, svg: str) -> dict[str, tuple[int, int]]:
    cells = [e.text or "" for e in groups(parse(svg), "counts")]
    names = [p.name for p in load_variant(variant).powers]
    found = {}
    for name, cell in zip(names, cells, strict=True):
        match = re.fullmatch(r"(\d+) SC · (\d+) units", cell)
        assert match, cell
        found[name] = (int(match[1]), int(match[2]))
    return found


@pytest.mark.parametrize("case", ["zeus5 F1941M", "smallworld8 W01A", "standard F1901M"])
def test_the_legend_counts_are_those_of_the_results_text(case: str) -> None:
    variant = case.split()[0]
    request = {"zeus5 F1941M": ZEUS_FALL, "standard F1901M": NO_RETREAT}.get(case) or _small_world_winter()
    svg, result = _results_svg(variant, request)
    text, legend = _text_counts(variant, request, result), _legend_counts(variant, svg)
    assert legend == text


def test_zeus5_fall_map_draws_the_centres_the_text_gives() -> None:
    svg, _ = _results_svg("zeus5", ZEUS_FALL)
    owned = {title_of(g).split(":")[0]: title_of(g) for g in groups(parse(svg), "centre")}
    assert "U.S.S.R." in owned["POL"] and "U.S.S.R." in owned["RUM"]
    assert _legend_counts("zeus5", svg)["Germany"] == (2, 1)  # Berlin, Hamburg; A BER (A POL must retreat)


# -- names above the arrows ------------------------------------------------------------------------

CROSSING_LABELS = {
    "variant": "standard", "phase": "S1901M",
    "units": {"ENGLAND": ["F EDI", "F LON"], "RUSSIA": ["F SEV"], "TURKEY": ["F CON", "A BUL"], "ITALY": ["F ION"]},
    "orders": {"ENGLAND": ["F EDI - NTH", "F LON S F EDI - NTH"], "RUSSIA": ["F SEV - BLA"],
               "TURKEY": ["F CON - ANK", "A BUL - GRE"], "ITALY": ["F ION - GRE"]},
}


def test_province_names_are_drawn_above_the_arrows() -> None:
    root = parse(_results_svg("standard", CROSSING_LABELS, real=True)[0])
    order = {id(e): i for i, e in enumerate(root.iter())}
    arrows = [e for g in groups(root, "order") for e in g.iter() if e.tag == f"{SVG}path"]
    assert arrows
    last_arrow = max(order[id(e)] for e in arrows)
    labels = {e.text: order[id(e)] for e in root.iter() if "abbr" in classes(e)}
    for name in ("NTH", "BLA", "GRE", "ANK"):
        assert labels[name] > last_arrow, f"an arrow is drawn over {name}"
    names = [order[id(e)] for e in root.iter() if "name" in classes(e)]
    assert min(names) > last_arrow
