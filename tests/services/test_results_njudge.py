"""Issue 22 items 8-11 and 13: the results exactly as njudge prints them (the engine's real
results, rendered through ``build_results_view`` and the judge and zine templates)."""

from __future__ import annotations

from typing import Any

from app import jsonapi
from tests.services.test_results_view import TEMPLATES, _judge, _standard, _view, _zine

_CONVOY_AND_BOUNCE = {
    "ENGLAND": ["F NTH C A Lon - Bel", "A Lon - Bel", "F ENG S A Lon - Bel"],
    "FRANCE": ["A Bel - Hol", "F Bre - Eng"],
    "GERMANY": ["A Ruh - Bel", "A Hol S A Ruh - Bel"],
}


def _lowlands(phase: str = "F1901M") -> dict[str, Any]:
    return _standard(phase, ENGLAND=["F NTH", "A LON", "F ENG"], FRANCE=["A BEL", "A PIC", "F BRE"],
                     GERMANY=["A HOL", "A RUH", "A KIE"])


# -- item 8: a unit nobody ordered -------------------------------------------------------------------

def test_a_unit_of_a_power_that_sent_no_orders_is_no_order_processed() -> None:
    view = _view("standard", _lowlands(), _CONVOY_AND_BOUNCE, nmr=["ITALY"])
    text = _judge(view)
    assert "Italy: Army Venice, No Order Processed.\n" in text, text
    assert "Italy: Army Venice HOLD." not in text
    assert "Army Venice, No Order Processed" in _zine(view)


def test_an_ordered_hold_is_still_hold() -> None:
    state = _standard("S1901M")
    text = _judge(_view("standard", state, {"ITALY": ["A Ven H", "A Rom H", "F Nap H"]}))
    assert "Italy: Army Venice HOLD.\n" in text, text


# -- item 9: a dislodged unit that had bounced ---------------------------------------------------------

def test_a_dislodged_unit_that_bounced_says_both() -> None:
    view = _view("standard", _lowlands(), _CONVOY_AND_BOUNCE)
    assert "France: Army Belgium -> Holland.  (*bounce, dislodged*)\n" in _judge(view)
    assert "Army Belgium -> Holland (*bounce, dislodged*)" in _zine(view)


def test_a_dislodged_holding_unit_is_only_dislodged() -> None:
    state = _standard("F1901M", AUSTRIA=["F ALB", "A SER", "A GAL"], RUSSIA=["A WAR", "A UKR", "F SEV", "F STP/SC"])
    text = _judge(_view("standard", state, {"AUSTRIA": ["A Gal H"], "RUSSIA": ["A War - Gal", "A Ukr S A War - Gal"]}))
    assert "Austria: Army Galicia HOLD.  (*dislodged*)\n" in text, text


def test_a_supported_unit_of_ones_own_power_is_not_named_by_its_owner() -> None:
    """njudge: ``Russia: Fleet Black Sea SUPPORT Army Rumania -> Bulgaria.``"""
    text = _judge(_view("standard", _lowlands(), _CONVOY_AND_BOUNCE))
    assert "England: Fleet English Channel SUPPORT Army London -> Belgium.  (*cut*)\n" in text, text
    assert "Germany: Army Holland SUPPORT Army Ruhr -> Belgium.\n" in text


# -- item 10: a convoyed army prints its path ----------------------------------------------------------

def test_a_convoyed_army_prints_its_path() -> None:
    state = _standard("S1901M", ENGLAND=["F NTH", "A LON", "F ENG"])
    text = _judge(_view("standard", state, {"ENGLAND": ["F NTH C A Lon - Bel", "A Lon - Bel"]}))
    assert "England: Army London -> North Sea -> Belgium.\n" in text, text


def test_a_longer_convoy_lists_every_fleet_in_order() -> None:
    state = _standard("S1901M", ENGLAND=["F NTH", "A LON", "F ENG"], FRANCE=["F MAO", "A PAR", "A MAR"])
    orders = {"ENGLAND": ["A Lon - Por", "F Eng C A Lon - Por"], "FRANCE": ["F Mao C A Lon - Por"]}
    text = _judge(_view("standard", state, orders))
    assert "England: Army London -> English Channel -> Mid-Atlantic Ocean -> Portugal.\n" in text, text


def test_a_bounced_convoy_keeps_its_path_and_a_land_move_has_none() -> None:
    text = _judge(_view("standard", _lowlands(), _CONVOY_AND_BOUNCE))
    assert "England: Army London -> North Sea -> Belgium.  (*bounce*)\n" in text, text
    assert "Germany: Army Ruhr -> Belgium.\n" in text


# -- item 11: a unit destroyed at the movement phase is not listed again --------------------------------

def test_a_unit_destroyed_at_the_movement_is_not_listed_in_the_retreat_results() -> None:
    state = _standard("F1901M", RUSSIA=["F SKA", "A MOS", "A WAR", "A UKR"], ENGLAND=["F NTH", "F NWG", "A NWY"],
                      GERMANY=["F DEN", "A KIE", "A BER", "F SWE"], AUSTRIA=["A GAL", "A VIE", "F TRI"])
    orders = {"ENGLAND": ["F NTH - SKA"], "GERMANY": ["F DEN S F NTH - SKA"],
              "RUSSIA": ["F SKA H", "A WAR - GAL", "A UKR S A WAR - GAL"]}
    moved = jsonapi.adjudicate_request({**state, "orders": orders})
    movement = _judge(_view("standard", state, orders, result=moved))
    assert "The Russian fleet in the Skagerrak with no valid retreats was destroyed." in movement, movement
    retreat_state = jsonapi.next_state(moved, variant="standard")
    assert retreat_state["phase"] == "F1901R"
    retreats = jsonapi.adjudicate_request({**retreat_state, "orders": {"AUSTRIA": ["A Gal - Boh"]}})
    text = _judge(_view("standard", retreat_state, {}, result=retreats))
    assert "Austria:    Army Galicia -> Bohemia.\n" in text, text
    assert "Skagerrak" not in text
    assert "Skagerrak" not in _zine(_view("standard", retreat_state, {}, result=retreats))


# -- item 13: the zine's centres, a Spring retreat, one phase name per mail ----------------------------

def test_the_zine_lists_who_owns_which_centres_and_what_changed_hands() -> None:
    state = _standard("F1901M", ENGLAND=["F NTH", "A LON", "F ENG"], FRANCE=["A BEL", "A PIC", "F BRE"],
                      GERMANY=["A HOL", "A RUH", "A KIE"])
    state["centers"] = {**state["centers"], "FRANCE": ["BRE", "MAR", "PAR", "BEL"]}
    orders = {"ENGLAND": ["F NTH C A Lon - Bel", "A Lon - Bel", "F ENG S A Lon - Bel"], "FRANCE": ["A Bel - Hol"]}
    view = _view("standard", state, orders)
    zine = _zine(view)
    assert "OWNERSHIP\n" in zine, zine
    assert "  England:     Bel Edi Lon Lvp\n" in zine
    assert "  France:      Bre Mar Par\n" in zine
    assert "  Changed hands: Bel F->E, Hol -->G.\n" in zine  # ASCII, as the whole text mail (issue 28.21)
    assert zine.isascii()
    html = TEMPLATES.render("mail/zine/results.html.j2", v=view)
    assert "Bel F-&gt;E" in html


def test_a_spring_unit_that_must_retreat_is_not_counted_as_a_build() -> None:
    state = _standard("S1901M", AUSTRIA=["F ALB", "A SER", "A GAL"], RUSSIA=["A WAR", "A UKR", "F SEV", "F STP/SC"])
    view = _view("standard", state, {"AUSTRIA": ["A Gal H"], "RUSSIA": ["A War - Gal", "A Ukr S A War - Gal"]})
    assert view.next_phase is not None and view.next_phase.code == "S1901R"
    zine = _zine(view)
    row = next(line.split() for line in zine.split("SUPPLY CENTRES", 1)[1].splitlines()
               if line.strip().startswith("Austria"))
    assert row == ["Austria", "3", "+0", "3", "+0"], zine
    assert "Units include 1 awaiting retreat." in zine


def test_an_adjustment_mail_names_its_phase_one_way() -> None:
    """W1901A in the :: header and the title, as in the subject (issue 28.15); F1901B only on input."""
    state = _standard("W1901A", ENGLAND=["F NTH", "F EDI", "A LVP", "A YOR"])
    text = _judge(_view("standard", state, {"ENGLAND": ["Remove F NTH"]}))
    assert ":: Deadline: W1901A then\n" in text, text
    assert "Adjustment orders for Winter of 1901.  (g.W1901A)\n" in text
    assert "F1901B" not in text


def test_the_headers_name_of_an_adjustment_phase_is_understood() -> None:
    from app.services.ruleset.phases import parse_phase_words

    assert parse_phase_words("F1902B") == "W1902A"
    assert parse_phase_words("Fall 1902 Builds") == "W1902A"
    assert parse_phase_words("Winter 1902 Adjustments") == "W1902A"
    assert parse_phase_words("F1902R") == "F1902R"


# -- item 18: the variant's own title in the zine -------------------------------------------------------

def test_the_zine_is_titled_with_the_variants_own_name() -> None:
    state = {**jsonapi.initial_state("smallworld"), "phase": "S01M"}
    view = _view("smallworld", state, {}, result={"phase": "S01M", "orders": [], "units": state["units"],
                                                  "dislodged": {}, "centers": state["centers"], "next_phase": "F01M"})
    zine = _zine(view)
    assert "Small World II-R  *  Spring 01 Movement" in zine, zine
    assert "Smallworld" not in zine


# -- issue 28 item 17: a void order is the unit's one line ------------------------------------------------

def test_a_unit_given_two_orders_holds_on_one_line_and_is_dislodged_there() -> None:
    """Two different orders (DATC 4.D.3): each is void, the unit holds; no extra "No Order Processed"
    line, and the hold's dislodgement shows on the void lines."""
    state = _standard("F1901M", AUSTRIA=["F ALB", "A SER", "A GAL"], RUSSIA=["A WAR", "A UKR", "F SEV", "F STP/SC"])
    text = _judge(_view("standard", state, {"AUSTRIA": ["A Gal - Boh", "A Gal - Vie"],
                                            "RUSSIA": ["A War - Gal", "A Ukr S A War - Gal"]}))
    galicia = [line for line in text.splitlines() if line.startswith("Austria: Army Galicia")]
    assert galicia == ["Austria: Army Galicia -> Bohemia.  (*void, dislodged*)",
                       "Austria: Army Galicia -> Vienna.  (*void, dislodged*)"], text
