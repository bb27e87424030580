"""The game state model: set-up, several turns of transitions, JSON round trips."""

import json
from fractions import Fraction

import pytest

from app.dod3.dice import DiceRoller, verify_rolls
from app.dod3.political import PoliticalAffairs
from app.dod3.state import (
    GameSetup,
    GameState,
    advance,
    apply_bonus_bid_points,
    choose_option,
    democrat_move_downs,
    gm_adjust,
    new_game,
    players_from_preset,
    record_weather,
    resolve_initiative,
    roll_political_end,
    start_political_phase,
    wars_summary,
)
from app.dod3.turns import Phase, turn_key

SEED = "5eed" * 16

SETUP = {
    "game_id": "dod3-test",
    "preset": "4b",
    "powers": {
        # GM-entered numbers (the draft's set-up charts are missing): illustrative only
        "GE": {"pe": 4, "money": 5, "credit_limit": 10, "bid_points": 6, "objectives_needed": 20},
        "IT": {"pe": 3, "money": 2, "credit_limit": 6, "bid_points": 6},
        "CW": {"pe": 2, "money": 8, "credit_limit": 12, "bid_points": 6},
        "FR": {"pe": 2, "money": 4, "credit_limit": 8, "bid_points": 6},
        "RU": {"pe": 2, "money": 3, "credit_limit": 6, "bid_points": 6},
        "JA": {"pe": 1, "money": 3, "credit_limit": 6, "bid_points": 6, "objectives_needed": 12},
        "US": {"pe": 1, "money": 10, "credit_limit": 15, "bid_points": 6},
        "CH": {"pe": -1, "money": 1, "credit_limit": 2, "bid_points": 6},
    },
    "option_costs": {"IPO 1": 2, "IPO 2": 4, "GE 1": 3, "IT 1": 1, "MP 0": 0},
    "weather_chart": {"Jan/Feb": ["snow"] * 3 + ["storm"] * 3 + ["fine"] * 4,
                      "Mar/Apr": ["rain"] * 5 + ["fine"] * 5},
    "options": {"rule_8_6": True},
}


def affairs(state: GameState) -> PoliticalAffairs:
    """The political phase under way (the state is in one)."""
    assert state.political is not None
    return state.political


def round_trip(state: GameState) -> GameState:
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    return again


def test_setup_defaults_and_presets():
    setup = GameSetup.from_dict(SETUP)
    assert dict(setup.players)["CW+FR"] == ("CW", "FR")
    assert setup.player_of("CH") == "CH+US"
    needed = setup.objectives_needed()
    assert needed["FR"] == 7 and needed["CH"] == 3 and needed["CW"] == 23 and needed["US"] == 17
    assert needed["RU"] == 17 and needed["GE"] == 20
    assert setup.option_cost("MP 0(f)") == 0
    assert GameSetup.from_dict(setup.to_dict()) == setup
    with pytest.raises(ValueError):
        players_from_preset("2")
    assert players_from_preset("2", soviet_with="democrats")[1][1] == ("US", "CH", "CW", "FR", "RU")
    bare = GameSetup.from_dict({"game_id": "x"})
    assert bare.powers[0].objectives_needed is None and len(bare.players) == 8


def test_several_turns():
    state = round_trip(new_game(GameSetup.from_dict(SETUP)))
    assert state.turn_label == "Jan/Feb 1936" and state.phase == Phase.WEATHER

    # --- turn 1: no initiative; weather; everyone may play one option
    state = round_trip(record_weather(state, die=8))
    assert state.weather == "fine"
    state = round_trip(start_political_phase(advance(state)))
    assert affairs(state).slots == ("GE", "IT", "CW", "FR", "RU", "JA", "US", "CH")
    state = choose_option(state, "GE", "GE 1", effects="Rhineland reoccupied")
    assert state.power("GE").money == 2
    with pytest.raises(ValueError):
        choose_option(state, "IT", "IPO 1")  # the end roll comes first
    state = round_trip(roll_political_end(state, 9))
    state = choose_option(state, "IT", "IT 1")
    state = round_trip(roll_political_end(state, 3))  # 3 - 1 (GE's option) = 2: go on
    state = choose_option(state, "CW", "MP 0(f)")
    state = round_trip(roll_political_end(state, 3))  # 3 - 2 = 1: ends
    assert affairs(state).ended
    state = round_trip(apply_bonus_bid_points(advance(state)))
    # GE, IT, CW played; FR +2, RU +2, JA +1, US +1 bid points; China loses 1 money
    assert state.power("FR").bid_points == 8 and state.power("GE").bid_points == 6
    assert state.power("CH").money == 0 and state.power("CH").bid_points == 6
    # the GM enters what the charts decide
    state = gm_adjust(state, "US", "IPO 15 naval ratio", pe_modifier=1)
    state = gm_adjust(state, "IT", "IT 1 US entry", us_entry="1.5")
    state = gm_adjust(state, "US", "half shift", us_entry=Fraction(1, 2))
    state = round_trip(gm_adjust(state, "IT", at_war_with=[]))
    assert state.power("US").modified_pe == 2 and state.power("IT").us_entry == Fraction(3, 2)
    for _ in range(6):  # E F G H I, then the next turn
        state = advance(state)
    assert state.turn_label == "Mar/Apr 1936" and state.phase == Phase.INITIATIVE
    assert state.political is None and state.weather is None

    # --- turn 2: the rulebook's example bids
    state = round_trip(resolve_initiative(state, {"IT": 2, "FR": 2, "RU": 3, "CW": 1, "JA": {"points": 6, "options": 2}}))
    assert state.track == ("IT", "RU", "CW", "FR", "JA", "GE", "US", "CH")
    assert state.last_card == 5
    assert state.power("JA").bid_points == 1 and state.power("FR").bid_points == 6
    with pytest.raises(ValueError, match="already"):
        resolve_initiative(state, {"IT": 1})
    state = round_trip(democrat_move_downs(state, {"FR": {"below": "JA"}}))
    with pytest.raises(ValueError, match="already"):
        democrat_move_downs(state, {})
    assert state.track == ("IT", "RU", "CW", "JA", "FR", "GE", "US", "CH")
    state = advance(state)
    roller = DiceRoller(seed=SEED, game="dod3-test", turn=turn_key(state.turn))
    state = record_weather(state, die=roller.roll("weather"))
    state = start_political_phase(advance(state))
    assert affairs(state).order == (("IT", 1), ("RU", 1), ("CW", 1), ("JA", 2), ("FR", 1))
    state = gm_adjust(state, "JA", at_war_with=["CH"])
    state = gm_adjust(state, "CH", at_war_with=["JA"])
    assert wars_summary(state) == (2, False)
    state = choose_option(state, "IT", "IPO 2")
    state = roll_political_end(state, roller.roll("end roll after IT IPO 2"))
    if not affairs(state).ended:
        with pytest.raises(ValueError, match="credit limit"):
            choose_option(state, "RU", "IPO 9", cost=20)
    assert verify_rolls(SEED, roller.commitment, [r.to_dict() for r in roller.rolls]) == []
    state = round_trip(state)
    assert any("Initiative:" in entry.text for entry in state.log)


def test_game_end_at_step_i():
    state = new_game(GameSetup.from_dict(SETUP))
    for power in ("GE", "IT", "JA"):
        state = gm_adjust(state, power, conquered=True)
    while state.phase != Phase.END_OF_TURN:
        state = advance(state)
    state = advance(state)
    assert state.ended == ("all the major powers of Fascists have been conquered",)
    with pytest.raises(ValueError):
        advance(state)
    bitter = dict(SETUP, options={"bitter_end": True})
    state = new_game(GameSetup.from_dict(bitter))
    for power in ("GE", "IT", "JA"):
        state = gm_adjust(state, power, conquered=True)
    while state.phase != Phase.END_OF_TURN:
        state = advance(state)
    assert advance(state).ended == ()


def test_turn_2_needs_bids_before_going_on():
    state = new_game(GameSetup.from_dict(SETUP))
    while state.phase != Phase.END_OF_TURN:
        state = advance(state)
    state = advance(state)
    assert state.phase == Phase.INITIATIVE
    with pytest.raises(ValueError, match="initiative"):
        advance(state)
    with pytest.raises(ValueError):
        start_political_phase(state)


def _report_text(state, rolls=(), **options):
    """The one turn report (app.dod3.report) laid out by the mail template."""
    from app.dod3.report import turn_report_view
    from app.services.kernel.render import Templates

    return Templates().render("mail/dod3/report.txt.j2", v=turn_report_view("dod3-test", state, rolls, **options))


def test_turn_report():
    state = new_game(GameSetup.from_dict(SETUP))
    while state.phase != Phase.END_OF_TURN:
        state = advance(state)
    state = advance(state)
    state = resolve_initiative(state, {"IT": 2, "FR": 2, "RU": 3, "CW": 1, "JA": {"points": 6, "options": 2}})
    state = democrat_move_downs(state, {})
    state = advance(state)
    roller = DiceRoller(seed=SEED, game="dod3-test", turn=turn_key(state.turn))
    state = record_weather(state, result="fine")
    state = start_political_phase(advance(state))
    state = choose_option(state, "IT", "IT 1", target="Albania", effects="Albania occupied")
    state = roll_political_end(state, roller.roll("end roll after IT IT 1"))
    text = _report_text(state, roller.rolls, commitment=roller.commitment, seed=SEED, next_text="MJ1936A by Friday")
    flat = " ".join(text.split())
    assert "Mar/Apr 1936" in text
    assert "5th Japan" in flat and "bid 6 for 2 options: (6+1)/2 = 3.5" in flat
    assert flat.index("5th Japan") < flat.index("last card") < flat.index("6th Germany")
    assert "6th Germany no bid (4)" in flat
    assert "Italy plays IT 1 (cost 1)." in flat and "Effects: Albania occupied" in flat
    assert "End roll: d10" in flat and roller.commitment in text and SEED in text
    assert "NEXT MJ1936A by Friday" in flat


def test_pending_option_paid_only_on_success_and_ipo2_default_cost():
    from app.dod3.state import settle_option

    state = new_game(GameSetup.from_dict(SETUP))
    assert state.setup.option_cost("IPO 2") == 4
    state = start_political_phase(advance(record_weather(state, result="fine")))
    state = choose_option(state, "GE", "GE 3", cost=2, pending=True)
    assert state.power("GE").money == 5  # not paid yet
    state = roll_political_end(state, 10)
    state = choose_option(state, "IT", "IPO 2")
    assert state.power("IT").money == -2
    state = settle_option(state, "GE", "GE 3", succeeded=True)
    assert state.power("GE").money == 3
    assert affairs(round_trip(state)).plays[0].status == "succeeded"


def test_face_down_pe_is_hidden_from_the_public_report():
    state = new_game(GameSetup.from_dict(SETUP))
    assert state.power("US").pe_hidden and state.power("RU").pe_hidden and not state.power("GE").pe_hidden
    state = gm_adjust(state, "US", "IPO 15", pe_modifier=2)
    state = advance(record_weather(state, result="fine"))
    state = start_political_phase(state)
    state = roll_political_end(choose_option(state, "GE", "GE 1"), 1)
    state = apply_bonus_bid_points(advance(state))
    public = _report_text(state)
    private = _report_text(state, gm=True)
    own = _report_text(state, reveal={"US"})  # the US player's copy (issue 9 item 12)
    us_public = next(line for line in public.splitlines() if line.startswith("  USA "))
    us_private = next(line for line in private.splitlines() if line.startswith("  USA "))
    us_own = next(line for line in own.splitlines() if line.startswith("  USA "))
    ru_own = next(line for line in own.splitlines() if line.startswith("  Soviet Union "))
    assert "?" in us_public and "?" not in us_private and "?" not in us_own and "?" in ru_own
    assert "PE modifier +2" not in public and "PE modifier +2" in private and "PE modifier +2" in own
    assert "USA: ? (PE face down)" in public and "USA: +3 bid points" in private and "USA: +3 bid points" in own
    state = gm_adjust(state, "US", "IPO 15 played", pe_hidden=False)
    assert "?" not in next(line for line in _report_text(state).splitlines() if line.startswith("  USA "))
