"""Issue 28 item 21 for Days of Decision III: the dice note says the seed is hex-decoded; a Democrat
is not told it is his turn to move down after he moved; "1 bid point"."""

from __future__ import annotations

from tests.dod3.mailgame import (
    GM,
    PLAYERS,
    Seeds,
    create,
    flat,
    gm,
    open_state,
    play_first_turn_passing,
    seeds,  # noqa: F401  -- fixture
    send,
)
from tests.server.conftest import Harness


def test_the_turn_report_says_the_seed_is_hex_decoded(harness: Harness, seeds: Seeds) -> None:  # noqa: F811
    create(harness)
    gm(harness, "DOD3 START")
    start = harness.outbox(to=PLAYERS["Soviet"][0])[-1].body_text
    assert "SHA256 of the seed's bytes" in " ".join(start.split()), start
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PROCESS")
    report = " ".join(harness.outbox(to=PLAYERS["Soviet"][0], kind="results")[-1].body_text.split())
    assert "in hex: decode it to its 32 bytes; SHA256 of those bytes is the commitment" in report, report
    assert "SHA256(seed)" not in report


def test_a_democrat_who_answers_in_the_same_mail_is_not_told_it_is_his_turn(harness: Harness,
                                                                             seeds: Seeds) -> None:  # noqa: F811
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PROCESS")
    reply = send(harness, "Soviet", "BID RU 1")
    assert "Bid recorded: Soviet Union 1 bid point." in reply and "1 bid points" not in reply, reply
    send(harness, "France/Commonwealth", "BID CW 1\nBID FR 2")
    send(harness, "Axis", "BID IT 2\nBID JA 6 OPTIONS 2\nBID GE 0")
    send(harness, "USA/China", "BID US 0\nBID CH 0")  # revealed; the Democrats in order: CH, US, FR, CW
    code, _ = open_state(harness)
    assert code == "MA1936AM"
    usc, fc = PLAYERS["USA/China"][0], PLAYERS["France/Commonwealth"][0]
    before = len(harness.outbox(to=usc, kind="notice"))
    send(harness, "USA/China", "STAY CH\nSTAY US")  # both of the player's Democrats at once
    told = [m.subject for m in harness.outbox(to=usc, kind="notice")[before:]]
    assert not [s for s in told if "may move down" in s], told
    called = harness.outbox(to=fc, kind="notice")[-1]
    assert "France may move down" in called.subject
    assert "Nationalist China stays." in called.body_text and "USA stays." in called.body_text
    assert GM


def test_the_gm_ends_a_dod3_game_by_ruling_and_summary_and_history_keep_it(harness: Harness,
                                                                          seeds: Seeds) -> None:  # noqa: F811
    """Item 8 in Days of Decision III: the ruling is among the major powers not conquered; each player
    is mailed the end once; SUMMARY (players, no supply centres) and HISTORY close with it."""
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PROCESS")
    gm(harness, "DOD3 CONQUERED IT YES")
    reply = flat(gm(harness, "DECLARE CONCESSION Italy\nToo late.\nENDSTATEMENT"))
    assert "Italy is out of the game: the survivors are Nationalist China, Commonwealth, France, USA, " \
           "Germany, Japan, and Soviet Union" in reply, reply
    reply = flat(gm(harness, "DECLARE DRAW USA, Soviet Union\nThe war never came.\nENDSTATEMENT"))
    assert "Game 'gazette' is over: a draw between USA, Soviet Union." in reply, reply
    ended = [m for m in harness.outbox(kind="end") if m.subject == "Diplomacy game gazette is over"]
    assert sorted(m.recipients[0] for m in ended) == sorted([GM] + [address for address, _, _ in PLAYERS.values()])
    text = " ".join(ended[0].body_text.split())
    assert "Game 'gazette' has been declared a draw between USA and Soviet Union." in text
    assert "The war never came." in text
    harness.send(GM, "SUMMARY gazette")
    summary = harness.last_reply(GM)
    assert "Summary of game 'gazette' (dod3, finished)." in summary
    assert "Supply Center" not in summary  # no map, no centres
    assert "Germany" in summary and PLAYERS["Axis"][0] in summary  # the players, by power
    assert "has been declared a draw between USA and Soviet Union." in " ".join(summary.split())
    reply = flat(send(harness, "Soviet", "SUMMARY"))  # signed on: the game's report, then its end
    assert "has been declared a draw between USA and Soviet Union." in reply, reply
    harness.send(GM, "HISTORY gazette")
    history = " ".join(harness.last_reply(GM).split())
    assert history.index("THE GAZETTE DISPATCH") < history.index("has been declared a draw between USA and Soviet")
