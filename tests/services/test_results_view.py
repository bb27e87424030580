"""The results' words for what the engine decided (issue 8 items 6-10, issue 9 items 3, 4 and 8):
engine results rendered through ``build_results_view`` and the judge and zine templates."""

from __future__ import annotations

from typing import Any

import pytest

from app import jsonapi
from app.services.kernel.render import Templates
from app.services.results.report import Names, ResultsView, build_results_view, publishable
from app.services.ruleset import engine as game_engine
from app.services.ruleset.powers import PowerBook
from app.services.ruleset.stored import stored_result, stored_state

TEMPLATES = Templates()


def _view(variant: str, state: dict[str, Any], orders: dict[str, list[str]], *, result: dict[str, Any] | None = None,
          previous: dict[str, int] | None = None, nmr: list[str] | None = None) -> ResultsView:
    result = result or jsonapi.adjudicate_request({**state, "orders": orders})
    info = jsonapi.variant_map(variant)
    engine_variant = game_engine.game_variant(variant, state.get("rules"))
    return build_results_view(
        game_name="g", variant=variant, judge_id="TEST", state_before=stored_state(state), result=stored_result(result),
        state_after=stored_state(jsonapi.next_state(result, variant=variant)), book=PowerBook(info), names=Names(info),
        deadline_text="then", next_deadline_text="later", nmr_powers=nmr or [],
        read_order=lambda text: game_engine.read_order(engine_variant, text), previous_centres=previous,
        convoy_path=lambda source, target, fleets, by_sea: game_engine.convoy_path(engine_variant, source, target,
                                                                                   fleets, by_sea))


def _judge(view: ResultsView) -> str:
    return TEMPLATES.render("mail/judge/results.txt.j2", v=view)


def _zine(view: ResultsView) -> str:
    return TEMPLATES.render("mail/zine/results.txt.j2", v=view)


def _standard(phase: str, **units: list[str]) -> dict[str, Any]:
    state = jsonapi.initial_state("standard")
    return {**state, "phase": phase, "units": {**state["units"], **units}}


# -- issue 8 item 6: a failed build is never reported as made ------------------------------------

def test_a_build_beyond_the_allowed_count_is_printed_as_failed() -> None:
    state = _standard("W1901A", ENGLAND=["F NTH", "A LVP"])
    text = _judge(_view("standard", state, {"ENGLAND": ["Build A Edi", "Build F Lon"]}))
    assert "England:    Builds an army in Edinburgh.\n" in text
    assert "England:    Builds a fleet in London.  (*too many builds*)" in text
    assert "Builds a fleet in London.\n" not in text


# -- issue 8 item 7: the zine's centre chart --------------------------------------------------------

def _chart_row(text: str, power: str) -> list[str]:
    chart = text.split("SUPPLY CENTRES", 1)[1]
    return next(line.split() for line in chart.splitlines() if line.strip().startswith(power))


def test_the_fall_chart_shows_the_owners_after_the_moves_and_the_change() -> None:
    state = _standard("F1901M", AUSTRIA=["F ALB", "A SER", "A GAL"], RUSSIA=["A WAR", "A UKR", "F SEV", "F STP/SC"])
    view = _view("standard", state, {"AUSTRIA": ["F Alb - Gre", "A Ser H", "A Gal H"],
                                     "RUSSIA": ["A War - Gal", "A Ukr S A War - Gal"]},
                 previous={"AUSTRIA": 3, "ENGLAND": 3, "FRANCE": 3, "GERMANY": 3, "ITALY": 3, "RUSSIA": 4,
                           "TURKEY": 3})
    assert view.next_phase is not None and view.next_phase.code == "F1901R"  # the retreat comes first
    assert _chart_row(_zine(view), "Austria") == ["Austria", "5", "+2", "2", "+3"]
    assert _chart_row(_zine(view), "Russia") == ["Russia", "4", "+0", "4", "+0"]


def test_a_spring_chart_keeps_the_owners_of_the_last_winter() -> None:
    state = _standard("S1901M", AUSTRIA=["F TRI", "A VIE", "A BUD"])
    view = _view("standard", state, {"AUSTRIA": ["A Bud - Ser"]}, previous={"AUSTRIA": 3})
    assert _chart_row(_zine(view), "Austria") == ["Austria", "3", "+0", "3", "+0"]


# -- issue 8 item 8: judge layout details -----------------------------------------------------------

def test_the_ownership_block_ends_with_the_unowned_centres() -> None:
    state = _standard("F1901M", AUSTRIA=["F TRI", "A VIE", "A BUD"])
    text = _judge(_view("standard", state, {"AUSTRIA": ["A Bud - Ser"]}))
    block = text.split("Ownership of supply centers:", 1)[1]
    assert "\nUnowned:    Belgium, Bulgaria, Denmark, Greece, Holland, Norway, Portugal,\n" in block, block
    assert "\n            Rumania, Spain, Sweden, Tunis.\n" in block
    assert block.index("Turkey:") < block.index("Unowned:") < block.index("Supply centers")


def test_retreat_lines_are_padded_like_the_judges() -> None:
    state = {**_standard("F1901R", AUSTRIA=["F TRI", "A VIE"], RUSSIA=["A GAL", "A WAR", "F SEV", "F STP/SC"]),
             "dislodged": {"AUSTRIA": {"A BUD": {"attacker": "GAL", "retreats": ["SER", "RUM"]}}}}
    result = jsonapi.adjudicate_request({**state, "orders": {"AUSTRIA": ["A Bud R Ser"]}})
    text = _judge(_view("standard", state, {}, result=result))
    assert "Austria:    Army Budapest -> Serbia.\n" in text, text


def test_a_default_removal_is_marked_as_the_judges_default() -> None:
    state = _standard("W1901A", ENGLAND=["F NTH", "F EDI", "A LVP", "A YOR"])
    text = _judge(_view("standard", state, {}, nmr=["ENGLAND"]))
    assert "England:    Defaults, removing the fleet in the North Sea.\n" in text
    zine = _zine(_view("standard", state, {}, nmr=["ENGLAND"]))
    assert "Defaults, removing the fleet in the North Sea" in zine


def test_an_ordered_removal_at_sea_has_its_article() -> None:
    state = _standard("W1901A", ENGLAND=["F NTH", "F EDI", "A LVP", "A YOR"])
    text = _judge(_view("standard", state, {"ENGLAND": ["Remove F NTH"]}))
    assert "England:    Removes the fleet in the North Sea.\n" in text


# -- issue 9 item 3: no doubled period ---------------------------------------------------------------

def test_a_power_name_ending_in_a_period_is_not_doubled() -> None:
    state = jsonapi.initial_state("zeus5")
    text = _judge(_view("zeus5", state, {}, nmr=["CHINA", "USSR"]))
    assert "No orders received from: China, U.S.S.R.\n" in text
    assert ".." not in text


# -- issue 8 item 10: Zeus 5 hidden builds ------------------------------------------------------------

def test_building_in_both_secret_sites_hides_nothing() -> None:
    state = jsonapi.initial_state("zeus5")
    view = _view("zeus5", state, {"USA": ["Build F Cal", "Build F Nyk", "Build F Haw"]})
    text = _judge(view)
    assert "U.S.A.:     Builds a fleet in California.\n" in text
    assert "U.S.A.:     Builds a fleet in New York.\n" in text
    assert "cal/cal" not in text.lower()


def test_publishable_replaces_each_unit_once() -> None:
    """Even told to hide both sites, no unit becomes ``F NYK/CAL/CAL``."""
    result = {"phase": "W1939A",
              "orders": [{"power": "USA", "order": "BUILD F CAL", "normalized": "BUILD F CAL", "result": "succeeds"},
                         {"power": "USA", "order": "BUILD F NYK", "normalized": "BUILD F NYK", "result": "succeeds"}],
              "hidden": [{"power": "USA", "unit": "F CAL", "public": "F NYK/CAL", "reveal_after": "S1940M"},
                         {"power": "USA", "unit": "F NYK", "public": "F NYK/CAL", "reveal_after": "S1940M"}]}
    public, after = publishable(stored_result(result),
                                stored_state({"phase": "S1940M", "units": {"USA": ["F CAL", "F NYK"]}}))
    assert after.units["USA"] == ("F NYK/CAL", "F NYK/CAL")
    assert [o.normalized for o in public.orders] == ["BUILD F NYK/CAL", "BUILD F NYK/CAL"]
    assert [o.order for o in public.orders] == ["BUILD F NYK/CAL", "BUILD F NYK/CAL"]


# -- issue 9 item 4: the adjustment table counts an A/F as two units -----------------------------------

def test_the_adjustment_table_counts_an_af_as_an_army_and_a_fleet() -> None:
    state = {**jsonapi.initial_state("smallworld"), "phase": "F01M"}
    units = {**state["units"], "NORTH_AMERICA": ["A/F GOM", "A TEX", "F CAL"]}
    centres = {**state["centers"], "NORTH_AMERICA": ["ALA", "CAL", "CUB", "NYK", "TEX"]}
    result = {"phase": "F01M", "orders": [], "units": units, "dislodged": {}, "centers": centres,
              "next_phase": "W01A"}
    text = _judge(_view("smallworld", state, {}, result=result))
    assert "North America:  5 Supply centers,  4 Units:  Builds   1 unit.\n" in text, text
    assert _chart_row(_zine(_view("smallworld", state, {}, result=result)), "North") == [
        "North", "America", "5", "+0", "4", "+1"]


# -- issue 8 item 9, issue 9 item 8: what happens to units is said --------------------------------------

def _sw_entry(power: str, order: str, result: str, reason: str, outcome: dict[str, Any],
              default: bool = False) -> dict[str, Any]:
    entry = {"power": power, "order": order, "normalized": order, "result": result, "reason": reason,
             "explanation": "", "outcome": outcome}
    return {**entry, "default": True} if default else entry


SAID = [
    ("F01M", _sw_entry("NORTH_AMERICA", "A/F GOM - CAR", "succeeds", "ok",
                       {"kind": "army_starved", "then": {"kind": "moved", "to": "CAR", "by_convoy": False,
                                                          "dislodged": None}}),
     "North America: A/F Gulf of Mexico -> Caribbean.  (*army lost at sea*)"),
    ("F01M", _sw_entry("NORTH_AMERICA", "A/F GOM - CAR - CUB", "fails", "bounce",
                       {"kind": "landing_failed", "stage": "land", "via": "CAR",
                        "cause": {"kind": "bounced", "by": "HAV", "attack": 1, "opposing": 1,
                                  "against": "hold"}}),
     "(*bounce, the army stays aboard*)"),
    ("S01M", _sw_entry("NORTH_AMERICA", "A TEX BOARDS F GOM", "succeeds", "ok",
                       {"kind": "boarded", "fleet": "GOM"}),
     "North America: Army Texas BOARDS Fleet Gulf of Mexico."),
    ("W01A", _sw_entry("NORTH_AMERICA", "REMOVE A TEX", "succeeds", "least_impact",
                       {"kind": "least_impact_removal", "unit": "A TEX"}, default=True),
     "North America: Defaults, removing the army in Texas.  (least-impact rule)"),
    ("F01R", _sw_entry("NORTH_AMERICA", "F GOM R CAR", "succeeds", "ok", {"kind": "retreated", "to": "CAR"},
                       default=True),
     "North America: Fleet Gulf of Mexico -> Caribbean.  (no retreat ordered: Right-Hand Rule)"),
]


@pytest.mark.parametrize(("phase", "entry", "line"), SAID, ids=[s[2][:40] for s in SAID])
def test_what_happens_to_units_is_said(phase: str, entry: dict[str, Any], line: str) -> None:
    state = {**jsonapi.initial_state("smallworld"), "phase": phase}
    result = {"phase": phase, "orders": [entry], "units": state["units"], "dislodged": {},
              "centers": state["centers"], "next_phase": "S02M"}
    text = _judge(_view("smallworld", state, {}, result=result))
    assert line in text, text
    assert "civil disorder" not in text


def test_a_destroyed_standing_army_is_said() -> None:
    state = jsonapi.initial_state("zeus5")
    state = {**state, "phase": "S1940M", "units": {**state["units"], "BRITAIN": ["A BRM", "A NEP", "F BOB"]}}
    view = _view("zeus5", state, {"BRITAIN": ["A BRM - IND", "A NEP S A BRM - IND", "F BOB S A BRM - IND"]})
    text = _judge(view)
    assert "The following units were dislodged:\n\nThe standing army in India was destroyed.\n" in text, text


def test_an_army_lost_to_rations_is_said_with_the_real_engine() -> None:
    base = jsonapi.initial_state("smallworld8")
    state = {**base, "phase": "S02M", "units": {"WESTERN_EUROPE": ["A/F NTH"]}, "af_moves": {"NTH": 3}}
    text = _judge(_view("smallworld8", state, {"WESTERN_EUROPE": ["A/F NTH - NWG"]}))
    assert "A/F North Sea -> Norwegian Sea.  (*army lost at sea*)\n" in text, text
    unordered = _judge(_view("smallworld8", state, {}))
    assert "A/F North Sea, No Order Processed.  (*army lost at sea*)\n" in unordered, unordered


def test_a_least_impact_removal_is_said_with_the_real_engine() -> None:
    base = jsonapi.initial_state("smallworld8")
    units = {**base["units"], "NORTH_AMERICA": [*base["units"]["NORTH_AMERICA"], "A ALA"]}
    text = _judge(_view("smallworld8", {**base, "phase": "W01A", "units": units}, {}, nmr=["NORTH_AMERICA"]))
    assert "North America: Defaults, removing the army in Alaska.  (least-impact rule)\n" in text, text
    assert "civil disorder" not in text


def test_a_right_hand_rule_retreat_is_said_with_the_real_engine() -> None:
    base = jsonapi.initial_state("smallworld")
    state = {**base, "phase": "F01R", "units": {**base["units"], "NORTH_AMERICA": ["F CAL", "F NYK"]},
             "dislodged": {"NORTH_AMERICA": {"A TEX": {"attacker_from": "MEX", "retreats": ["ROC", "MWS", "FLA"]}}}}
    text = _judge(_view("smallworld", state, {}, nmr=["NORTH_AMERICA"]))
    assert "North America: Army Texas -> Rockies.  (no retreat ordered: Right-Hand Rule)\n" in text, text


def test_a_retreat_standoff_is_a_bounce_and_destroyed_like_the_judges() -> None:
    state = {**_standard("F1901R", AUSTRIA=["F TRI", "A VIE"], GERMANY=["A MUN", "F KIE", "A BER"],
                         RUSSIA=["A GAL", "A WAR", "F SEV", "F STP/SC"], TURKEY=["F ANK", "A CON", "A SMY"]),
             "dislodged": {"AUSTRIA": {"A BUD": {"attacker_from": "GAL", "retreats": ["SER", "RUM"]}},
                           "TURKEY": {"A BUL": {"attacker_from": "GRE", "retreats": ["SER", "RUM"]}}}}
    result = jsonapi.adjudicate_request({**state, "orders": {"AUSTRIA": ["A Bud R Ser"], "TURKEY": ["A Bul R Ser"]}})
    text = _judge(_view("standard", state, {}, result=result))
    assert "Austria:    Army Budapest -> Serbia.  (*bounce, destroyed*)\n" in text, text
