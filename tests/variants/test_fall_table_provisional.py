"""Issue 22.16: the Fall table says whether its unit counts are provisional. After a Fall
move that dislodges units, Zeus 5 (like the standard game) has a retreat phase next: the
zine's centre chart counts the units standing, so the dislodged ones are left out until they
retreat; Small World (rule 11.2) counts the units still to retreat as if they got away."""

from __future__ import annotations

from typing import Any

from app import jsonapi
from app.services.kernel.render import Templates
from app.services.results.report import Names, ResultsView, build_results_view
from app.services.ruleset import engine as game_engine
from app.services.ruleset.phases import PhaseKind
from app.services.ruleset.powers import PowerBook
from app.services.ruleset.stored import stored_result, stored_state

TEMPLATES = Templates()


def _view(variant: str, request: dict[str, Any]) -> ResultsView:
    result = jsonapi.adjudicate_request(request)
    assert "error" not in result, result
    info = jsonapi.variant_map(variant)
    engine_variant = game_engine.game_variant(variant, None)
    state = {k: v for k, v in request.items() if k != "orders"}
    return build_results_view(
        game_name="g", variant=variant, judge_id="TEST", state_before=stored_state(state), result=stored_result(result),
        state_after=stored_state(jsonapi.next_state(result, variant=variant)), book=PowerBook(info), names=Names(info),
        deadline_text="then", next_deadline_text="later", nmr_powers=[],
        read_order=lambda text: game_engine.read_order(engine_variant, text))


ZEUS_FALL = {
    "variant": "zeus5", "phase": "F1941M",
    "units": {"USSR": ["A MOS", "A LIT", "A STA"], "GERMANY": ["A POL", "A BER"]},
    "centers": {"USSR": ["MOS", "STA", "LEN"], "GERMANY": ["BER", "POL", "HAM"]},
    "orders": {"USSR": ["A MOS - POL", "A LIT S A MOS - POL", "A STA - RUM"], "GERMANY": ["A BER H", "A POL H"]},
}


def _chart(text: str) -> str:
    return text.split("SUPPLY CENTRES", 1)[1].split("NMR:", 1)[0]


def test_zeus5_fall_chart_says_its_dislodged_unit_is_not_counted() -> None:
    view = _view("zeus5", ZEUS_FALL)
    assert view.next_phase is not None and view.next_phase.kind is PhaseKind.RETREAT
    chart = _chart(TEMPLATES.render("mail/zine/results.txt.j2", v=view))
    germany = next(line.split() for line in chart.splitlines() if line.strip().startswith("Germany"))
    assert germany[3] == "1", chart  # A BER only: A POL is dislodged, waiting for its retreat
    assert "Units are provisional: 1 dislodged unit is not counted until it retreats." in chart, chart
    html = TEMPLATES.render("mail/zine/results.html.j2", v=view)
    assert "1 dislodged unit is not counted until it retreats" in html


def test_a_fall_without_dislodgements_says_nothing_provisional() -> None:
    quiet = {**ZEUS_FALL, "orders": {"USSR": ["A MOS H", "A LIT H", "A STA - RUM"], "GERMANY": ["A BER H", "A POL H"]}}
    view = _view("zeus5", quiet)
    assert "provisional" not in TEMPLATES.render("mail/zine/results.txt.j2", v=view)
    assert "provisional" not in TEMPLATES.render("mail/judge/results.txt.j2", v=view)


def test_small_world_fall_table_counts_the_units_still_to_retreat_and_says_so() -> None:
    state = jsonapi.initial_state("smallworld8")
    request = {**state, "phase": "F01M",
               "units": {"CHINA": ["A MUK", "A PEK"], "RUSSIA": ["A VLA", "A IRK"]},
               "centers": {"CHINA": ["PEK", "CAN"], "RUSSIA": ["VLA", "MOS"]},
               "orders": {"CHINA": ["A PEK - MUK", "A MUK H"], "RUSSIA": ["A VLA - MUK", "A IRK S A VLA - MUK"]}}
    view = _view("smallworld8", request)
    assert view.next_phase is not None and view.next_phase.kind is PhaseKind.ADJUSTMENT
    judge = TEMPLATES.render("mail/judge/results.txt.j2", v=view)
    assert "China:       2 Supply centers,  2 Units" in judge, judge
    assert "Units are provisional: 1 unit still to retreat is counted as if it gets away." in judge, judge
    assert "Units are provisional: 1 unit still to retreat" in _chart(TEMPLATES.render("mail/zine/results.txt.j2", v=view))
