"""Rules 8.2/8.6 (political affairs, the end roll) and step D (bonus bid points)."""

from fractions import Fraction

import pytest

from app.dod3.bonus import bonus_bid_points
from app.dod3.political import (
    PoliticalAffairs,
    count_previous_options,
    end_of_political_affairs,
    is_mp0,
    normalise_option,
    option_family,
    start_political_affairs,
    within_credit_limit,
)

# --- 8.6 the end roll --------------------------------------------------------

def test_rulebook_end_roll_example():
    # "Five major powers are at war with each other. You are in the 3rd
    # initiative position, and the major power in 2nd place has already
    # successfully played 2 options. ... you roll a 6. 3 is subtracted ... and
    # 1 is added since 5 major powers are at war. The final modified result is
    # 4, so the major power in the 4th initiative position may now have a go."
    roll = end_of_political_affairs(6, 3, powers_at_war=5, all_at_war=False)
    assert roll.modified == 4
    assert roll.subtracted == 3 and roll.at_war_bonus == 1 and roll.all_at_war_bonus == 0
    assert roll.ends is False


def test_end_roll_example_through_the_step():
    # 1st: one option; 2nd: two options; 3rd (us): one option, then the 4th goes on
    step = start_political_affairs(["IT", "RU", "CW", "FR"], {"IT": 1, "RU": 2, "CW": 1, "FR": 1})
    step = step.choose("IT", "IPO 1").roll_end(9, 5, False)
    step = step.choose("RU", "RU 1").roll_end(9, 5, False)
    step = step.choose("RU", "IPO 2").roll_end(9, 5, False)
    step = step.choose("CW", "IPO 3").roll_end(6, 5, False)
    assert step.rolls[-1].modified == 4 and not step.ended
    assert step.current_power == "FR"


@pytest.mark.parametrize(
    "die, previous, at_war, everyone, modified, ends",
    [
        (1, 0, 0, False, 1, True),  # 1 or less ends
        (2, 0, 0, False, 2, False),
        (2, 1, 0, False, 1, True),
        (3, 5, 0, False, -2, True),
        (1, 0, 4, False, 2, False),  # 4 at war: +1
        (1, 0, 3, False, 1, True),  # 3 at war: no bonus
        (1, 0, 8, True, 4, False),  # +1 and +2 are cumulative
        (1, 0, 2, True, 3, False),  # everyone surviving at war (e.g. only 2 left)
        (10, 9, 0, False, 1, True),
    ],
)
def test_end_roll_modifiers(die, previous, at_war, everyone, modified, ends):
    roll = end_of_political_affairs(die, previous, at_war, everyone)
    assert (roll.modified, roll.ends) == (modified, ends)


def test_optional_rule_8_6_does_not_count_mp0():
    played = ["IPO 3", "MP 0(f)", "GE 4", "0(e)"]
    assert count_previous_options(played) == (4, 2)
    standard = end_of_political_affairs(5, played, 0, False)
    optional = end_of_political_affairs(5, played, 0, False, rule_8_6=True)
    assert (standard.modified, standard.ends) == (1, True)
    assert (optional.modified, optional.ends) == (3, False)
    # the same with counts
    assert end_of_political_affairs(5, 4, 0, False, rule_8_6=True, previous_mp0=2).modified == 3
    assert end_of_political_affairs(5, 4, 0, False, rule_8_6=False, previous_mp0=2).modified == 1


def test_last_bidders_final_option_ends_automatically():
    roll = end_of_political_affairs(None, 2, 0, False, last_option_of_last_bidder=True)
    assert roll.ends and roll.automatic and roll.modified is None
    roll = end_of_political_affairs(10, 0, 8, True, last_option_of_last_bidder=True)
    assert roll.ends and roll.automatic


@pytest.mark.parametrize("die", [0, 11, "6.5"])
def test_end_roll_rejects_bad_dice(die):
    with pytest.raises(ValueError):
        end_of_political_affairs(die, 0, 0, False)


def test_end_roll_rejects_bad_counts():
    with pytest.raises(ValueError):
        end_of_political_affairs(5, -1, 0, False)
    with pytest.raises(ValueError):
        end_of_political_affairs(5, 1, 0, False, previous_mp0=2)
    with pytest.raises(ValueError):
        end_of_political_affairs(5, 1, 9, False)
    with pytest.raises(ValueError):
        end_of_political_affairs(None, 1, 0, False)


# --- options -------------------------------------------------------------------

def test_option_ids():
    assert normalise_option("ipo3") == "IPO 3"
    assert normalise_option("GE 4") == "GE 4"
    assert normalise_option("0(f)") == "MP 0(f)"
    assert normalise_option("mp 0 (E)") == "MP 0(e)"
    assert normalise_option("6", power="CW") == "CW 6"
    assert option_family("MP 0(f)") == option_family("0(e)") == "MP 0"
    assert is_mp0("0(f)") and not is_mp0("IPO 10")
    for bad in ("IPO 21", "7", "hello"):
        with pytest.raises(ValueError):
            normalise_option(bad)


def test_credit_limit():
    assert within_credit_limit(money=2, credit_limit=5, cost=7)  # exactly at the limit
    assert not within_credit_limit(money=2, credit_limit=5, cost=8)
    assert within_credit_limit(money=2, credit_limit=5, cost=8, paid_by_others=1)  # MP 3 partner
    assert within_credit_limit(money=-10, credit_limit=5, cost=3, option="MP 5")  # MP 5 always


def test_options_once_per_turn_and_own_card_only():
    step = start_political_affairs(["GE", "IT", "FR"], {"GE": 2, "IT": 1, "FR": 2})
    step = step.choose("GE", "IPO 2").roll_end(10, 0, False)
    with pytest.raises(ValueError, match="already been chosen"):
        step.choose("GE", "IPO 2")
    with pytest.raises(ValueError, match="another major power's card"):
        step.choose("GE", "IT 3")
    with pytest.raises(ValueError, match="turn"):
        step.choose("IT", "IPO 5")  # not Italy's turn yet
    step = step.choose("GE", "MP 0(e)").roll_end(10, 0, False)
    with pytest.raises(ValueError, match="already been chosen"):
        step.choose("IT", "IPO 2")  # only one player may play IPO 2 this turn
    step = step.choose("IT", "MP 0(f)").roll_end(10, 0, False)  # Italy's own MP 0 is fine
    step = step.choose("FR", "0(e)").roll_end(10, 0, False)
    with pytest.raises(ValueError, match="already been chosen"):
        step.choose("FR", "0(f)")  # 0(e) and 0(f) are one option


def test_choose_checks_credit_limit():
    step = start_political_affairs(["GE"], {"GE": 1})
    with pytest.raises(ValueError, match="credit limit"):
        step.choose("GE", "GE 4", 9, money=0, credit_limit=8)
    step = step.choose("GE", "GE 4", 8, money=0, credit_limit=8)
    assert step.plays[-1].cost == 8


def test_roll_must_follow_each_option_and_order_is_enforced():
    step = start_political_affairs(["GE", "IT"], {"GE": 1, "IT": 1})
    with pytest.raises(ValueError, match="no option awaits"):
        step.roll_end(5, 0, False)
    step = step.choose("GE", "IPO 1")
    with pytest.raises(ValueError, match="roll"):
        step.choose("IT", "IPO 2")
    step = step.roll_end(1, 0, False)  # modified 1: ends, Italy never plays
    assert step.ended and step.current_power is None
    assert step.powers_that_played == {"GE"}


def test_last_card_ends_step_after_final_option_without_die():
    step = start_political_affairs(["GE", "IT", "CW"], {"GE": 1, "IT": 2})  # CW did not bid
    step = step.choose("GE", "IPO 1").roll_end(10, 0, False)
    step = step.choose("IT", "IPO 2").roll_end(10, 0, False)
    assert step.is_last_slot
    step = step.choose("IT", "IPO 3").roll_end(None, 0, False)
    assert step.ended and step.rolls[-1].automatic
    assert step.powers_that_played == {"GE", "IT"}


def test_first_turn_one_option_each_in_track_order():
    step = start_political_affairs(["GE", "IT", "CW"], {"GE": 3}, first_turn=True)
    assert step.order == (("GE", 1), ("IT", 1), ("CW", 1))
    assert step.slots == ("GE", "IT", "CW")


def test_non_bidders_cannot_play_and_nobody_bidding_ends_at_once():
    step = start_political_affairs(["GE", "IT"], {"IT": 1})
    assert step.order == (("IT", 1),)
    assert start_political_affairs(["GE", "IT"], {}).ended


def test_pass_turn_and_json_round_trip():
    step = start_political_affairs(["GE", "IT", "FR"], {"GE": 1, "IT": 1, "FR": 1})
    step = step.choose("GE", "GE 4", "3.5", target="Poland", effects="war").roll_end(8, 5, False, rule_8_6=True)
    step = step.pass_turn("IT")
    assert step.current_power == "FR" and not step.awaiting_roll
    with pytest.raises(ValueError):
        step.pass_turn("IT")
    step = step.choose("FR", "IPO 1")
    assert step.awaiting_roll
    with pytest.raises(ValueError, match="roll"):
        step.choose("FR", "IPO 4")
    step = step.roll_end(None, 5, False)  # FR's is the last option: no die needed
    assert step.ended and step.rolls[-1].automatic
    assert step.rolls[-1].previous_options == 1  # GE's; IT passed
    step = step.update_play(minor_activated="Rumania")
    assert step.plays[-1].minor_activated == "Rumania"
    again = PoliticalAffairs.from_dict(step.to_dict())
    assert again == step
    assert step.to_dict()["plays"][0]["cost"] == 3.5


# --- D. bonus bid points -------------------------------------------------------

def test_bonus_bid_points():
    changes = bonus_bid_points(
        {"GE": 3, "IT": -2, "CW": 0, "FR": Fraction(5, 2), "JA": Fraction(-5, 2), "RU": 4},
        played=["RU"],
    )
    by_power = {c.power: (c.bid_points_gained, c.money_lost) for c in changes}
    assert by_power == {
        "GE": (3, 0),
        "IT": (0, 2),  # negative PE: lose money
        "CW": (0, 0),
        "FR": (3, 0),  # 2.5 rounds up
        "JA": (0, 3),  # -2.5 rounds down to -3
    }
    assert "RU" not in by_power  # played an option


# --- 8.4 pending options and the option numbers the draft prints ---------------

def test_pending_option_settles_later():
    step = start_political_affairs(["GE", "RU"], {"GE": 1, "RU": 1})
    step = step.choose("GE", "GE 3", 2, pending=True, effects="pact offered to the USSR").roll_end(9, 0, False)
    assert [p.status for p in step.pending] == ["pending"]
    step = step.choose("RU", "MP 0(f)").roll_end(None, 1, False)
    step = step.settle("GE", "GE 3", succeeded=True)
    assert step.plays[0].status == "succeeded" and not step.pending
    with pytest.raises(ValueError, match="no pending"):
        step.settle("GE", "GE 3", succeeded=False)
    assert PoliticalAffairs.from_dict(step.to_dict()) == step


def test_ipo1_and_ipo2_numbers():
    from app.dod3.option_numbers import (
        ipo1_movement_points,
        ipo2_can_break_agreement,
        ipo2_can_make_agreement,
        ipo2_cost,
    )

    assert ipo1_movement_points(1, "Fascists") == 8
    assert ipo1_movement_points(8, "Fascists") == 1
    assert ipo1_movement_points(1, "Democrats") == 6
    assert ipo1_movement_points(3, "Communists") == 5
    assert ipo1_movement_points(7, "Democrats") == 1  # minimum 1
    assert ipo2_cost() == 4 and ipo2_cost(two_resources=True) == 8
    assert ipo2_can_make_agreement(3, 3) and not ipo2_can_make_agreement(4, 3)
    assert ipo2_can_break_agreement(2, 3, 5)  # 2 < 3 and 2 < 2.5
    assert not ipo2_can_break_agreement(3, 4, 6)  # 3 is not less than 6/2
    assert not ipo2_can_break_agreement(3, 3, 8)  # not less than the willpower
    assert ipo2_can_break_agreement(8, 1, 1, own_agreement=True)
    with pytest.raises(ValueError):
        ipo1_movement_points(9, "Fascists")
