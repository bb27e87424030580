"""Rule 6: initiative, including the rulebook's second-turn example exactly."""

from fractions import Fraction

import pytest

from app.dod3.initiative import (
    DEFAULT_BID_MODIFIERS,
    Bid,
    InitiativeResult,
    MoveDown,
    apply_move_downs,
    bid_modifier,
    compute_initiative,
    final_bid,
    move_down_order,
)
from app.dod3.powers import INITIAL_TRACK

# Rule 6 example: "Germany, the USA and China do not bid. Japan wants to play
# 2 options and bids 6 points ... Italy and France bid 2 points each, the
# Soviets 3, and the CW ... 1 point". Italy has a higher PE than the Soviet
# Union; the CW and France have the same PE.
EXAMPLE_BIDS = {"IT": 2, "FR": 2, "RU": 3, "CW": 1, "JA": (6, 2)}
ZERO_PE = {power: 0 for power in INITIAL_TRACK}
EXAMPLE_PE = {"IT": 3, "RU": 2, "CW": 2, "FR": 2, "GE": 4, "JA": 1, "US": 1, "CH": 0}


def example():
    return compute_initiative(INITIAL_TRACK, EXAMPLE_BIDS, EXAMPLE_PE)


def test_rule_6_second_turn_example_track():
    result = example()
    assert result.track == ("IT", "RU", "CW", "FR", "JA", "GE", "US", "CH")
    # "Italy 1st, USSR 2nd, CW 3rd, France 4th, Japan 5th, Germany 6th, USA 7th, China 8th"
    assert [entry.position for entry in result.entries] == list(range(1, 9))


def test_rule_6_second_turn_example_totals():
    # "Italy and the Soviet Union +5, Germany (0+4), the CW (1+3) and France
    # (2+2) +4, Japan +3.5 ((6+1)/2), the USA +1, and China 0."
    result = example()
    totals = {entry.power: entry.final_bid for entry in result.entries}
    assert totals == {
        "IT": 5, "RU": 5, "GE": 4, "CW": 4, "FR": 4, "JA": Fraction(7, 2), "US": 1, "CH": 0,
    }
    assert result.entry("JA").final_bid == Fraction(7, 2)
    assert {p for p in result.track if not result.entry(p).bidder} == {"GE", "US", "CH"}


def test_rule_6_example_last_card_marker_after_japan():
    result = example()
    assert result.last_card == 5
    assert result.last_card_power == "JA"
    assert result.bidders == ("IT", "RU", "CW", "FR", "JA")
    assert result.options_by_power() == {"IT": 1, "RU": 1, "CW": 1, "FR": 1, "JA": 2}


def test_bid_modifiers_derived_from_the_example():
    """Recover each position's modifier from the example's bids and totals."""
    stated_total: dict[str, int | Fraction] = {"GE": 4, "IT": 5, "CW": 4, "FR": 4, "RU": 5, "JA": Fraction(7, 2), "US": 1, "CH": 0}
    bids = {"GE": (0, 1), "IT": (2, 1), "CW": (1, 1), "FR": (2, 1), "RU": (3, 1), "JA": (6, 2), "US": (0, 1), "CH": (0, 1)}
    derived = []
    for power in INITIAL_TRACK:  # last turn's order = the initial track
        points, options = bids[power]
        derived.append(stated_total[power] * options - points)
    assert tuple(derived) == DEFAULT_BID_MODIFIERS == (4, 3, 3, 2, 2, 1, 1, 0)


def test_multi_option_example_first_position():
    # "if you bid 9 for two options and are in the first initiative position
    # your final bid amount would be 6.5 ((9+4)/2)"
    assert final_bid(9, 2, bid_modifier(1)) == Fraction(13, 2)
    track = ("GE", "IT", "CW")
    result = compute_initiative(track, {"GE": (9, 2), "IT": 3}, {})
    assert result.entry("GE").final_bid == Fraction(13, 2)
    assert result.track[0] == "GE"


def test_multi_option_fractions_are_not_rounded():
    # 4 points for 3 options from 3rd place: (4 + 3) / 3 = 7/3, which beats 2 + 0 from 8th
    track = INITIAL_TRACK
    result = compute_initiative(track, {"CW": (4, 3), "CH": 2}, ZERO_PE)
    assert result.entry("CW").final_bid == Fraction(7, 3)
    assert result.entry("CH").final_bid == 2
    assert result.track[:2] == ("CW", "CH")
    # and 7/3 loses to 5/2 (Italy 2nd: (2+3)/2)
    result = compute_initiative(track, {"CW": (4, 3), "IT": (2, 2)}, ZERO_PE)
    assert result.entry("IT").final_bid == Fraction(5, 2)
    assert result.track[:2] == ("IT", "CW")


def test_ties_by_modified_pe_then_previous_order():
    track = ("GE", "IT", "CW", "FR")
    # GE 1+4 = 5, IT 2+3 = 5, CW 2+3 = 5, FR 3+2 = 5: all tied
    bids = {"GE": 1, "IT": 2, "CW": 2, "FR": 3}
    result = compute_initiative(track, bids, {"GE": 1, "IT": 2, "CW": 2, "FR": 3})
    assert result.track == ("FR", "IT", "CW", "GE")  # PE 3, then IT/CW on PE 2 by last turn's order, GE
    result = compute_initiative(track, bids, {"GE": 0, "IT": 0, "CW": 0, "FR": 0})
    assert result.track == track  # all equal: last turn's order


def test_pe_may_be_fractional_and_negative():
    track = ("GE", "IT")
    result = compute_initiative(track, {"GE": 1, "IT": 2}, {"GE": Fraction(-1, 2), "IT": -1})
    assert result.track == ("GE", "IT")


def test_tie_without_pe_is_an_error_but_pe_is_optional_otherwise():
    with pytest.raises(ValueError, match="modified PE"):
        compute_initiative(("GE", "IT"), {"GE": 1, "IT": 2}, {})
    assert compute_initiative(("GE", "IT"), {"GE": 1, "IT": 3}, {}).track == ("IT", "GE")


def test_non_bidders_come_after_every_bidder_even_with_higher_totals():
    # Germany 1st last turn gets +4 without bidding; Japan bids 1 from 6th: total 2
    result = compute_initiative(INITIAL_TRACK, {"JA": 1}, ZERO_PE)
    assert result.track[0] == "JA"
    assert result.last_card == 1 and result.last_card_power == "JA"
    # the non-bidders keep their (modifier) order: GE 4, IT 3, CW 3, FR 2, RU 2, US 1, CH 0
    assert result.track[1:] == ("GE", "IT", "CW", "FR", "RU", "US", "CH")


def test_nobody_bids():
    result = compute_initiative(INITIAL_TRACK, {}, ZERO_PE)
    assert result.last_card is None and result.last_card_power is None
    assert result.track == INITIAL_TRACK


def test_everybody_bids_last_card_at_eighth():
    bids = {power: 1 for power in INITIAL_TRACK}
    pe = {power: i for i, power in enumerate(INITIAL_TRACK)}
    result = compute_initiative(INITIAL_TRACK, bids, pe)
    assert result.last_card == 8


def test_bid_validation():
    with pytest.raises(ValueError):
        Bid("GE", -1)
    with pytest.raises(ValueError):
        Bid("GE", 0, 2)  # no bid cannot be for options
    with pytest.raises(ValueError):
        Bid("GE", "2.5")  # type: ignore[arg-type]  # a bid is a whole number: a text read by mistake is refused
    with pytest.raises(ValueError):
        Bid("GE", 3, 0)
    with pytest.raises(ValueError):
        compute_initiative(("GE", "IT"), {"JA": 1}, {})  # not on the track
    with pytest.raises(ValueError, match="bid points"):
        compute_initiative(("GE", "IT"), {"GE": 5}, {}, pools={"GE": 4})
    assert Bid("Germany", 3).power == "GE"
    assert Bid.from_dict(Bid("USSR", 6, 2).to_dict()) == Bid("RU", 6, 2)


def test_track_with_fewer_powers_uses_position_modifiers():
    result = compute_initiative(("GE", "CW", "RU"), {"RU": 1, "CW": 0}, {})
    assert result.entry("RU").modifier == 3  # 3rd place
    assert result.track == ("RU", "GE", "CW")


# --- Democrat move-downs ----------------------------------------------------

def test_rulebook_move_down_example_cw_drops_below_germany():
    # "The Commonwealth is in second position, just after France and just ahead
    # of Germany ... the Commonwealth drops below Germany (leaving Germany in
    # second position)."
    previous = ("FR", "CW", "GE", "IT", "JA", "RU", "US", "CH")
    bids = {"FR": 6, "CW": 5, "GE": 4, "IT": 1}  # FR 10, CW 8, GE 7, IT 4
    result = compute_initiative(previous, bids, ZERO_PE)
    assert result.track[:3] == ("FR", "CW", "GE")
    moved = apply_move_downs(result, {"CW": {"below": "GE"}})
    assert moved.track[:3] == ("FR", "GE", "CW")
    assert moved.entry("GE").position == 2 and moved.entry("CW").position == 3
    assert moved.last_card == result.last_card == 4
    assert [m.to_dict() for m in moved.move_downs] == [{"power": "CW", "below": "GE"}]


def test_move_down_order_is_reverse_initiative_order_of_democrats():
    result = compute_initiative(INITIAL_TRACK, EXAMPLE_BIDS, EXAMPLE_PE)
    assert move_down_order(result) == ("CH", "US", "FR", "CW")


def test_bidding_democrat_may_not_drop_below_a_non_bidder():
    result = example()  # IT RU CW FR JA | GE US CH
    with pytest.raises(ValueError, match="did not bid"):
        apply_move_downs(result, {"CW": {"below": "GE"}})
    with pytest.raises(ValueError, match="did not bid"):
        apply_move_downs(result, {"FR": {"to": 6}})
    moved = apply_move_downs(result, {"CW": {"below": "JA"}})  # to 5th: the last bidder
    assert moved.track == ("IT", "RU", "FR", "JA", "CW", "GE", "US", "CH")
    assert moved.last_card == 5 and moved.last_card_power == "CW"


def test_non_bidding_democrat_may_move_down_among_non_bidders():
    result = example()
    moved = apply_move_downs(result, {"US": {"to": 8}})
    assert moved.track[-2:] == ("CH", "US")


def test_each_democrat_moves_once_in_reverse_order():
    result = example()  # IT RU CW FR JA GE US CH
    # France (lower) moves first, below Japan; then the CW moves to 4th
    moved = apply_move_downs(result, [MoveDown("CW", to=4), MoveDown("FR", below="JA")])
    # after FR: IT RU CW JA FR ...; then CW to 4th: IT RU JA CW FR
    assert moved.track[:5] == ("IT", "RU", "JA", "CW", "FR")
    assert [m.power for m in moved.move_downs] == ["FR", "CW"]
    with pytest.raises(ValueError, match="only once"):
        apply_move_downs(result, [MoveDown("CW", to=4), MoveDown("CW", to=5)])
    with pytest.raises(ValueError, match="already had their chance"):
        apply_move_downs(moved, {"US": {"to": 8}})


def test_only_democrats_move_and_only_down():
    result = example()
    with pytest.raises(ValueError, match="only Democrats"):
        apply_move_downs(result, {"IT": {"to": 2}})
    with pytest.raises(ValueError, match="only move down"):
        apply_move_downs(result, {"FR": {"below": "RU"}})
    with pytest.raises(ValueError):
        apply_move_downs(result, {"FR": {"to": 2}})
    with pytest.raises(ValueError):
        MoveDown("FR")
    assert apply_move_downs(result, {}).track == result.track


def test_initiative_result_round_trips_through_json():
    moved = apply_move_downs(example(), {"CW": "JA"})
    again = InitiativeResult.from_dict(moved.to_dict())
    assert again == moved
    assert moved.to_dict()["entries"][4]["final_bid"] in (4, 3.5)


def test_conquered_powers_leave_the_track_but_positions_keep_their_modifiers():
    # Germany (1st last turn) has been conquered: Italy was 2nd and keeps +3
    result = compute_initiative(INITIAL_TRACK, {"IT": 1, "CW": 1}, ZERO_PE, absent=["GE"])
    assert "GE" not in result.track and len(result.track) == 7
    assert result.entry("IT").modifier == 3 and result.entry("IT").final_bid == 4
    assert result.track[:2] == ("IT", "CW")  # 4 vs 4: same PE, Italy was ahead
    with pytest.raises(ValueError):
        compute_initiative(INITIAL_TRACK, {"GE": 1}, ZERO_PE, absent=["GE"])
