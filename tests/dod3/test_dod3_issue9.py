"""Issue 9, Days of Decision III items: what the players are told by mail.

Each test fails on the main branch before the DoD III split (commit 15129c6)."""

from __future__ import annotations

import pytest

from tests.dod3.mailgame import (
    GM,
    OWNER,
    PLAYERS,
    Seeds,
    create,
    flat,
    game_row,
    gm,
    open_state,
    play_first_turn_passing,
    send,
)
from tests.server.conftest import Harness

# -- item 13: +N / -N add, a bare number sets --------------------------------------------------

INCREMENTS = [  # (entries, power, field, expected value); GE starts E with PE 4, money 10, 12 bid points
    (["DOD3 MONEY GE +2"], "GE", "money", 12),
    (["DOD3 MONEY GE +2", "DOD3 MONEY GE -3"], "GE", "money", 9),
    (["DOD3 MONEY GE +2", "DOD3 MONEY GE 4"], "GE", "money", 4),
    (["DOD3 MONEY GE -1/2"], "GE", "money", 9.5),
    (["DOD3 USENTRY GE +3/2", "DOD3 USENTRY GE +1/2"], "GE", "us_entry", 2),
    (["DOD3 USENTRY GE 3", "DOD3 USENTRY GE -1"], "GE", "us_entry", 2),
    (["DOD3 OBJECTIVES GE 3", "DOD3 OBJECTIVES GE +2"], "GE", "objectives", 5),
    (["DOD3 BIDPOINTS GE +3"], "GE", "bid_points", 15),
    (["DOD3 BIDPOINTS GE -2"], "GE", "bid_points", 10),
    (["DOD3 PE GE +1"], "GE", "pe", 5),
    (["DOD3 PE GE 0"], "GE", "pe", 0),
    (["DOD3 MONEY GE =-2"], "GE", "money", -2),  # "=" sets a negative number
    (["DOD3 CREDIT GE +1", "DOD3 PEMOD GE -1/2"], "GE", "credit_limit", 6),
]


@pytest.mark.parametrize(("entries", "power", "field", "expected"), INCREMENTS)
def test_gm_numbers_add_with_a_sign_and_set_without(harness: Harness, seeds: Seeds, entries: list[str],
                                                     power: str, field: str, expected: float) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    reply = gm(harness, "\n".join(entries))
    assert "Error" not in reply, reply
    _, state = open_state(harness)
    assert getattr(state.power(power), field) == expected


def test_gm_increment_reply_says_the_change(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    assert "Germany: money is now 12 (+2)." in flat(gm(harness, "DOD3 MONEY GE +2"))
    assert "Germany: money is now 7 (-5)." in flat(gm(harness, "DOD3 MONEY GE -5"))
    assert "Germany: money is now 3." in flat(gm(harness, "DOD3 MONEY GE 3"))


def test_gm_increments_before_the_start_change_the_set_up(harness: Harness) -> None:
    create(harness)
    reply = flat(gm(harness, "DOD3 MONEY GE +2\nDOD3 OBJECTIVES GE 3\nDOD3 OBJECTIVES GE -1"))
    assert "Set-up: Germany money 12 (+2)." in reply and "Set-up: Germany objectives 2 (-1)." in reply
    powers = {p["power"]: p for p in game_row(harness).settings["dod3"]["setup"]["powers"]}
    assert powers["GE"]["money"] == 12 and powers["GE"]["objectives"] == 2


# -- item 12: each player sees his own hidden numbers ------------------------------------------


def _status_line(text: str, power_name: str) -> list[str]:
    table = text.split("THE POWERS")[1].split("\n\n")[0].splitlines()
    return next(line for line in table if line.startswith(f"  {power_name} "))[21:].split()  # after the name


def test_a_player_status_shows_his_own_hidden_numbers_and_bids(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PROCESS")  # Mar/Apr 1936, step A
    send(harness, "Soviet", "BID RU 3")
    mine = send(harness, "Soviet", "DOD3 STATUS")
    raw = harness.last_reply(PLAYERS["Soviet"][0])
    assert "Error" not in mine, mine
    assert _status_line(raw, "Soviet Union")[:5] == ["2", "2", "10", "5", "10"]  # PE, mod PE, money, credit, bid points
    assert _status_line(raw, "USA")[:2] == ["?", "?"]  # another player's face-down PE stays hidden
    assert "Your bids this turn: RU 3." in mine
    assert "Open step MA1936A, deadline" in mine
    other = send(harness, "USA/China", "DOD3 STATUS")
    raw = harness.last_reply(PLAYERS["USA/China"][0])
    assert _status_line(raw, "Soviet Union")[:2] == ["?", "?"] and "RU 3" not in other
    assert _status_line(raw, "USA")[:2] == ["1", "1"]


def test_each_players_copy_of_the_report_shows_his_own_hidden_numbers(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PROCESS")
    soviet = harness.outbox(to=PLAYERS["Soviet"][0], kind="results")[-1].body_text
    axis = harness.outbox(to=PLAYERS["Axis"][0], kind="results")[-1].body_text
    assert "Soviet Union: +2 bid points" in soviet and "Soviet Union: ? (PE face down)" in axis
    assert _status_line(soviet, "Soviet Union")[:2] == ["2", "2"] and _status_line(soviet, "USA")[0] == "?"
    assert _status_line(axis, "Soviet Union")[0] == "?"


# -- item 15: the GM sees who has not bid; DOD3 STATUS before the start ------------------------


def test_gm_status_names_the_powers_that_have_not_bid(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    before = flat(gm(harness, "DOD3 STATUS"))
    assert "Error" not in before and "The game has not started yet" in before and "Germany" in before
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PROCESS")
    send(harness, "Soviet", "BID RU 3")
    send(harness, "Axis", "BID GE 0\nBID IT 1")
    status = flat(gm(harness, "DOD3 STATUS"))
    assert "3 power(s) have sent a bid" in status
    assert "Still to bid: Commonwealth, France, Japan, USA, Nationalist China." in status
    assert "RU 3" not in status and "IT 1" not in status


# -- item 11: the end of the game names the winner ---------------------------------------------


def test_the_last_report_names_the_winner_and_tally_and_status_still_work(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 SET NEEDED GE 20\nDOD3 SET NEEDED JA 12\nDOD3 OBJECTIVES FR 28\nDOD3 OBJECTIVES CW 22\n"
                "DOD3 OBJECTIVES US 1\nDOD3 OBJECTIVES GE 3\nDOD3 CONQUERED RU YES\nDOD3 PROCESS")
    assert game_row(harness).status == "finished"
    last = harness.outbox(to=PLAYERS["Axis"][0], kind="results")[-1].body_text
    text = flat(last)
    assert "THE GAME HAS ENDED: all the major powers of Communists have been conquered" in text
    assert "VICTORY TALLY" in last
    assert "Democrats win; the winning player is France/Commonwealth." in text
    tally = flat(gm(harness, "DOD3 TALLY"))
    assert "Error" not in tally and "Winning ideology: Democrats; winning player: France/Commonwealth" in tally
    status = flat(gm(harness, "DOD3 STATUS"))
    assert "Error" not in status and "THE GAME HAS ENDED" in status
    assert "Democrats win; the winning player is France/Commonwealth." in status
    assert "Error" not in send(harness, "Soviet", "DOD3 STATUS")


# -- item 16: reports read as a zine -----------------------------------------------------------


def test_first_report_shows_the_initial_track_and_no_option_s(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PROCESS")
    text = flat(harness.outbox(to=PLAYERS["Soviet"][0], kind="results")[-1].body_text)
    assert ("the initial track is Germany, Italy, Commonwealth, France, Soviet Union, Japan, USA, "
            "Nationalist China") in text
    assert "option(s)" not in text and "power(s)" not in text


def test_gm_record_uses_the_rulebooks_words_and_conquest_is_marked(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PEMOD IT -1/2\nDOD3 MONEY GE +2\nDOD3 CONQUERED CH YES\nDOD3 PROCESS")
    text = harness.outbox(to=PLAYERS["Soviet"][0], kind="results")[-1].body_text
    assert "pe_modifier" not in text and "Italy: PE modifier -0.5 (now -0.5)" in flat(text)
    assert "Germany: money +2 (now 12)" in flat(text)
    assert "  Nationalist China*" in text and "* completely conquered: Nationalist China" in text


def test_dod3_replies_are_not_titled_diplomacy_orders() -> None:
    from app.services.ruleset.kinds import ruleset_for

    assert ruleset_for("dod3").reply_subject("gazette", "MA1936A") == "DoD3 gazette MA1936A"
    assert ruleset_for("standard").reply_subject("g1", "S1901M") == "Diplomacy orders g1 S1901M"


# -- item 15: nobody waits unknowingly ---------------------------------------------------------


def test_a_missing_option_cost_is_mailed_to_the_gm_at_once(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    reply = send(harness, "Axis", "OPTION GE GE 7")
    assert "no cost entered for GE 7: the GM must give it" in reply
    told = [m for m in harness.outbox(to=GM, kind="gm") if "GE 7" in m.subject]
    assert len(told) == 1 and "Germany waits for the cost of GE 7" in told[0].subject
    assert "DOD3 SET COST GE 7 <n>" in told[0].body_text


def test_democrats_move_down_one_after_another_each_told_what_the_ones_before_did(harness: Harness,
                                                                                  seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PROCESS")
    send(harness, "France/Commonwealth", "BID CW 1\nBID FR 2")
    send(harness, "Soviet", "BID RU 3")
    send(harness, "Axis", "BID IT 2\nBID JA 6 OPTIONS 2\nBID GE 0")
    send(harness, "USA/China", "BID US 0\nBID CH 0")  # everyone has bid: revealed; Democrats CH, US, FR, CW
    code, _ = open_state(harness)
    assert code == "MA1936AM"
    send(harness, "USA/China", "STAY CH")
    called = harness.outbox(to=PLAYERS["USA/China"][0], kind="notice")[-1]
    assert "USA may move down" in called.subject and "Nationalist China stays." in called.body_text
    send(harness, "USA/China", "STAY US")
    called = harness.outbox(to=PLAYERS["France/Commonwealth"][0], kind="notice")[-1]
    assert "France may move down" in called.subject
    assert "Nationalist China stays." in called.body_text and "USA stays." in called.body_text
    send(harness, "France/Commonwealth", "MOVEDOWN FR BELOW JA")
    called = harness.outbox(to=PLAYERS["France/Commonwealth"][0], kind="notice")[-1]
    assert "Commonwealth may move down" in called.subject and "France moves down below Japan." in called.body_text


# -- item 14: rule 8.4 pending options by mail -------------------------------------------------


def _pass_to_step_e(harness: Harness) -> None:
    code, state = open_state(harness)
    while code[6:].startswith("C"):
        assert state.political is not None
        power = state.political.current_power
        assert power is not None
        send(harness, OWNER[power], f"PASS {power}")
        code, state = open_state(harness)


def test_an_option_needing_approval_is_pending_until_the_gm_settles_it(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    reply = send(harness, "Axis", "OPTION GE GE 1 PENDING")
    assert "Germany plays GE 1 (cost 1), pending (rule 8.4)." in reply
    _, state = open_state(harness)
    assert state.power("GE").money == 10
    assert "Germany GE 1 is cancelled; nothing is paid." in flat(gm(harness, "DOD3 SETTLE GE GE 1 CANCEL"))
    _, state = open_state(harness)
    assert state.power("GE").money == 10 and state.political.plays[0].status == "failed"  # type: ignore[union-attr]
    assert "GE has no pending GE 1 this turn" in flat(gm(harness, "DOD3 SETTLE GE GE 1 YES"))


def test_ipo3_is_rolled_by_the_judge_and_fails_unless_settled(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    reply = send(harness, "Axis", "OPTION GE IPO 3")
    assert "pending (rule 8.4)" in reply and "The judge rolls for IPO 3: d10 = " in reply
    _pass_to_step_e(harness)
    gm(harness, "DOD3 PROCESS")
    text = flat(harness.outbox(to=PLAYERS["Soviet"][0], kind="results")[-1].body_text)
    assert "Germany plays IPO 3 (cost 2), which failed (nothing paid)." in text
    assert "#1 IPO 3 for GE: d10 = " in text  # the judge's roll is among the turn's verifiable dice
    _, state = open_state(harness)
    assert state.power("GE").money == 10


def test_a_settled_success_pays_the_cost(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    send(harness, "Axis", "OPTION GE IPO 3")
    assert "Germany IPO 3 succeeds; 2 paid." in flat(gm(harness, "DOD3 SETTLE GE IPO 3 YES"))
    _pass_to_step_e(harness)
    _, state = open_state(harness)
    assert state.power("GE").money == 8


def test_a_turn_without_dice_has_no_dangling_first_message(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PROCESS")
    for player, powers in (("Axis", "GE IT JA"), ("Soviet", "RU"), ("France/Commonwealth", "CW FR"),
                           ("USA/China", "US CH")):
        send(harness, player, "\n".join(f"BID {p} 0" for p in powers.split()))
    send(harness, "USA/China", "STAY CH\nSTAY US")
    send(harness, "France/Commonwealth", "STAY FR\nSTAY CW")
    gm(harness, "DOD3 WEATHER Fine")
    code, _ = open_state(harness)
    assert code == "MA1936E"
    gm(harness, "DOD3 PROCESS")
    text = harness.outbox(to=PLAYERS["Soviet"][0], kind="results")[-1].body_text
    assert "No dice were rolled this turn." in text and "The first message" not in text
    assert "Nobody bid: there are no options this turn." in flat(text)
