"""Days of Decision III by mail: a game created, bid on, carried through several turns.

The database and the memory outbox are the server tests' (tests/server/conftest.py); the
dice are the server's committed dice with a seed chosen by the test, so that the rule 8.6
example comes out of a real end roll.
"""

from __future__ import annotations

from datetime import timedelta

from app.db import queries
from app.db.models import OrderRow
from app.dod3.dice import Roll, verify_rolls
from app.scheduler import tick
from tests.dod3.mailgame import (
    GAME,
    GM,
    OWNER,
    PE,
    PLAYERS,
    Seeds,
    create,
    deadline_of,
    find_seed,
    flat,
    game_row,
    gm,
    open_state,
    phase_row,
    play_first_turn_passing,
    send,
    state_after,
)
from tests.server.conftest import Harness

# ----------------------------------------------------------------------------------------------


def test_created_game_is_stored_as_game_settings_and_phase_rows(harness: Harness, seeds: Seeds) -> None:
    create(harness, rule_8_6=True)
    game = game_row(harness)
    assert game.variant == "dod3" and game.status == "forming"
    setup = game.settings["dod3"]["setup"]
    assert setup["options"] == {"bitter_end": False, "rule_8_6": True}
    assert setup["option_costs"]["IPO 3"] == 2
    assert setup["players"]["USA/China"] == ["US", "CH"]
    with harness.judge.sessions.begin() as db:
        seats = queries.seats_of(db, game.id)
        assert sorted(s.power or "" for s in seats) == sorted(PE)
        assert {s.email for s in seats if s.power in ("US", "CH")} == {"usc@example.com"}
    reply = gm(harness, "DOD3 START")
    assert "The game has started" in flat(reply)
    code, state = open_state(harness)
    assert code == "JF1936C1" and state.turn == 0
    assert state.political is not None and state.political.current_power == "GE"
    start = harness.outbox(to="usc@example.com", kind="start")
    assert len(start) == 1  # one copy for the player of two powers
    assert state.dice_commitment and state.dice_commitment in start[0].body_text
    assert seeds.drawn[0] not in start[0].body_text  # the seed itself stays secret
    assert state.weather in ("Snow", "Frost", "Mild")  # rolled on the GM's chart at once
    assert "Weather (Jan/Feb, d10 = " in start[0].body_text


def test_gm_sets_up_a_game_by_mail(harness: Harness) -> None:
    out = harness.send(GM, "DOD3 CREATE mailgame secretpw PRESET 5")
    assert out.status == "done"
    reply = harness.last_reply(GM)
    assert "created" in reply and "CH+US" in reply and "secretpw" not in reply
    body = "SIGNON master@mailgame secretpw\n" + "\n".join(
        f"DOD3 SEAT {name} p{i}@example.com pw{i}" for i, name in enumerate(["GE", "JA+IT", "CW+FR", "CH+US", "RU"]))
    harness.send(GM, body)  # each seat waits for its address's confirmation, which the harness answers
    harness.send(GM, "SIGNON master@mailgame secretpw\nDOD3 SET COST IPO 3 2\nDOD3 SET RULE86 ON\n"
                     "DOD3 SET BITTEREND ON\nDOD3 PE GE 4\nDOD3 START")
    reply = harness.last_reply(GM)
    assert "Error" not in reply, reply
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "mailgame")
        assert game is not None and game.status == "active"
        cfg = game.settings["dod3"]["setup"]
        assert cfg["options"] == {"bitter_end": True, "rule_8_6": True}
        assert cfg["option_costs"]["IPO 3"] == 2
        assert next(p for p in cfg["powers"] if p["power"] == "GE")["pe"] == 4
        assert {s.power for s in game.players if s.email == "p3@example.com"} == {"CH", "US"}


def test_several_turns_by_mail(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")

    # --- Jan/Feb 1936: no bidding, one option each in the initial track order --------------
    reply = send(harness, "Soviet", "PASS GE")
    assert "you do not play Germany" in reply
    reply = send(harness, "Axis", "BID IT 3")
    assert "bids are taken in step A" in reply
    play_first_turn_passing(harness)
    code, state = open_state(harness)
    assert code == "JF1936E"
    bonus = {c.power: c.bid_points_gained for c in state.bonus}
    assert bonus == {"GE": 4, "IT": 3, "CW": 2, "FR": 2, "RU": 2, "JA": 1, "US": 1, "CH": 0}

    # The second turn's seed: end rolls that do not stop the first three options, a 6 after
    # the fourth (the rule 8.6 example), and one that lets Japan's second option go on.
    # IPO 3 is pending on the judge's die (rule 8.4): its roll comes first.
    purposes = ["IPO 3 for IT", "end roll after IT IPO 3", "end roll after RU RU 2", "end roll after FR FR 1",
                "end roll after JA JA 1", "end roll after JA IPO 5"]
    seeds.queue.append(find_seed(GAME, 1, purposes, [lambda d: True, lambda d: True, lambda d: d >= 2,
                                                     lambda d: d >= 3, lambda d: d == 6, lambda d: d >= 5]))
    gm(harness, "DOD3 PROCESS")
    report1 = harness.outbox(to="soviet@example.com", kind="results")[-1]
    assert "Jan/Feb 1936 turn report" in report1.subject
    assert "Soviet Union passes." in report1.body_text
    assert seeds.drawn[0] in report1.body_text  # turn 1's seed revealed
    code, state = open_state(harness)
    assert code == "MA1936A" and state.turn == 1
    assert state.dice_commitment is not None
    assert state.dice_commitment in report1.body_text  # turn 2's commitment published with it

    # --- Mar/Apr 1936, A: the rule 6 second-turn example -----------------------------------
    reply = send(harness, "France/Commonwealth", "BID CW 1\nBID FR 2")
    assert "Your bids this turn: CW 1; FR 2." in reply
    assert "RU" not in reply.split("Your bids")[-1]
    reply = send(harness, "Soviet", "BID RU 3\nBID GE 5")
    assert "you do not play Germany" in reply
    assert "Your bids this turn: RU 3." in reply
    assert "CW 1" not in reply and "FR 2" not in reply  # nobody sees another player's bid
    reply = send(harness, "Axis", "BID IT 2\nBID JA 6 OPTIONS 2\nBID GE 40")
    assert "Germany has only 12 bid points" in reply
    assert "Your bids this turn: IT 2; JA 6 for 2 options." in reply
    status = gm(harness, "DOD3 STATUS")
    assert "5 power(s) have sent a bid" in status and "BID" not in status.split("DOD3 STATUS")[-1]
    notices = [m.body_text for m in harness.outbox(to="usc@example.com")]
    assert not any("RU 3" in text or "bid 3" in text for text in notices)

    harness.clock.now = deadline_of(harness) + timedelta(minutes=1)
    assert tick(harness.judge).processed == [GAME]  # the deadline reveals the bids
    initiative = state_after(harness, "MA1936A")["initiative"]
    assert [e["power"] for e in initiative["entries"]] == ["IT", "RU", "CW", "FR", "JA", "GE", "US", "CH"]
    assert initiative["last_card"] == 5 and initiative["last_card_power"] == "JA"
    finals = {e["power"]: e["final_bid"] for e in initiative["entries"]}
    assert finals == {"IT": 5, "RU": 5, "CW": 4, "FR": 4, "JA": 3.5, "GE": 4, "US": 1, "CH": 0}
    notice = harness.outbox(to="soviet@example.com", kind="results")[-1].body_text
    assert "bid 6 for 2 options: (6+1)/2 = 3.5" in notice and "last card" in notice
    assert notice.index("Japan") < notice.index("last card") < notice.index("Germany")

    # --- the Democrats' move-downs (reverse order CH, US, FR, CW) --------------------------
    code, _ = open_state(harness)
    assert code == "MA1936AM"
    reply = send(harness, "Axis", "MOVEDOWN IT BELOW JA")
    assert "only the Democrats may move down" in reply
    reply = send(harness, "France/Commonwealth", "MOVEDOWN CW BELOW US")
    assert "must stay above every power that did not bid" in reply
    send(harness, "USA/China", "STAY CH\nSTAY US")
    reply = send(harness, "France/Commonwealth", "STAY FR\nMOVEDOWN CW BELOW JA")
    assert "Every Democrat has answered" in reply
    code, state = open_state(harness)
    assert state.track == ("IT", "RU", "FR", "JA", "CW", "GE", "US", "CH")
    assert code == "MA1936B"  # no weather chart: the GM enters it

    # --- B and C: wars, weather, political affairs with the end rolls ----------------------
    gm(harness, "DOD3 WAR GE CW FR\nDOD3 WAR IT RU\nDOD3 WEATHER Clear skies over Europe")
    code, state = open_state(harness)
    assert code == "MA1936C1" and state.political is not None and state.political.current_power == "IT"
    reply = send(harness, "Soviet", "OPTION RU RU 2")
    assert "it is Italy's turn" in reply
    reply = send(harness, "Axis", "OPTION IT IPO 3 MINOR Albania")
    assert "Italy plays IPO 3 (cost 2), activating Albania, pending (rule 8.4)." in reply
    assert "The judge rolls for IPO 3: d10 = " in reply and "End roll #1: " in reply
    _, pending = open_state(harness)
    assert pending.power("IT").money == 10  # not paid until it succeeds
    assert any("Italy IPO 3 is pending" in m.subject for m in harness.outbox(to=GM, kind="gm"))
    assert "Italy IPO 3 succeeds; 2 paid." in flat(gm(harness, "DOD3 SETTLE IT IPO 3 YES"))
    gm(harness, "DOD3 EFFECT IT Albania <moves> one box towards Italy")
    send(harness, "Soviet", "OPTION RU RU 2")
    reply = send(harness, "France/Commonwealth", "OPTION FR FR 1 MINOR Belgium")
    reply = send(harness, "Axis", "OPTION JA JA 1")
    assert "End roll #4: d10 6 - 3 + 1 = 4: they continue." in reply  # the rule 8.6 example
    reply = send(harness, "Axis", "OPTION JA IPO 3")
    assert "IPO 3 has already been chosen this turn" in reply
    send(harness, "Axis", "OPTION JA IPO 5")
    reply = send(harness, "France/Commonwealth", "OPTION CW CW 2")
    assert "political affairs end (no roll)" in reply
    code, state = open_state(harness)
    assert code == "MA1936E"
    rolls = state_after(harness, "MA1936C4")["political"]["rolls"]
    assert rolls[3] == {"die": 6, "previous_options": 3, "previous_mp0": 0, "rule_8_6": False, "subtracted": 3,
                        "powers_at_war": 5, "at_war_bonus": 1, "all_at_war": False, "all_at_war_bonus": 0,
                        "modified": 4, "ends": False, "automatic": False, "passed": None}
    # D: only the powers that played no option gain bid points (GE +4, US +1, CH +0).
    points = {p.power: p.bid_points for p in state.powers}
    assert points == {"CH": 8, "CW": 9, "FR": 8, "US": 10, "GE": 16, "IT": 9, "JA": 3, "RU": 7}
    money = {p.power: p.money for p in state.powers}
    assert money == {"CH": 10, "CW": 9, "FR": 9, "US": 10, "GE": 10, "IT": 8, "JA": 7, "RU": 9}

    # --- E-I: the GM's entries, then the turn report ---------------------------------------
    reply = gm(harness, "DOD3 MONEY GE 13\nDOD3 USENTRY GE 3/2\nDOD3 USENTRY JA 0.25\n"
                        "DOD3 RECORD Germany remilitarises the Rhineland <b>unopposed</b>\nDOD3 OBJECTIVES GE 3")
    assert "Error" not in reply
    reply = send(harness, "Axis", "DOD3 MONEY GE 99")
    assert "only the game master" in reply
    gm(harness, "DOD3 PROCESS")
    mail = harness.outbox(to="axis@example.com", kind="results")[-1]
    text = mail.body_text
    assert "Mar/Apr 1936 turn report" in mail.subject
    assert all(len(line) <= 72 for line in text.splitlines()), [l for l in text.splitlines() if len(l) > 72]
    for expected in ("1st Italy", "bid 2 +3 = 5", "5th Commonwealth", "Commonwealth moved down below Japan",
                     "Clear skies over Europe", "Italy plays IPO 3 (cost 2), activating Albania.",
                     "Effects: Albania <moves> one box towards Italy",
                     "End roll: d10 6 - 3 + 1 = 4: they continue.", "Germany: +4 bid points",
                     "USA: ? (PE face down)", "Germany: 1.5 (rounds to 2)", "Japan: 0.25 (rounds to 0)",
                     "Germany remilitarises the Rhineland", "MJ1936A"):
        assert expected in text, expected
    results = phase_row(harness, "MA1936E").results
    assert results is not None
    dice = results["dice"]
    assert dice["seed"] in text and dice["commitment"] in text
    assert verify_rolls(dice["seed"], dice["commitment"], [Roll.from_dict(r) for r in dice["rolls"]]) == []
    assert [r["result"] for r in dice["rolls"]][4] == 6
    assert mail.body_html is not None
    assert "&lt;b&gt;unopposed&lt;/b&gt;" in mail.body_html and "<b>unopposed" not in mail.body_html
    assert "&lt;moves&gt;" in mail.body_html
    table = text.split("THE POWERS")[1].split("\n\n")[0].splitlines()
    assert next(line for line in table if line.startswith("  Germany ")).split()[1:] == ["4", "4", "13", "5", "16",
                                                                                        "1.5"]
    assert next(line for line in table if line.startswith("  USA ")).split()[1:5] == ["?", "?", "10", "5"]
    # The USA/China player's own copy shows his face-down numbers (issue 9 item 12); nobody else's does.
    own = harness.outbox(to="usc@example.com", kind="results")[-1].body_text
    own_table = own.split("THE POWERS")[1].split("\n\n")[0].splitlines()
    assert next(line for line in own_table if line.startswith("  USA ")).split()[1:6] == ["1", "1", "10", "5", "10"]
    assert "USA: +1 bid point" in own and "USA: +1 bid points" not in own and "USA: ? (PE face down)" not in own
    for other in ("soviet@example.com", "fc@example.com"):
        assert "USA: ? (PE face down)" in harness.outbox(to=other, kind="results")[-1].body_text

    # --- May/Jun 1936: everyone bids (early reveal), a weather chart, the victory tally ---
    gm(harness, "DOD3 SET WEATHER May/Jun Fine,Fine,Fine,Fine,Fine,Rain,Rain,Rain,Storm,Storm")
    send(harness, "Axis", "BID GE 0\nBID IT 1\nBID JA 0")
    send(harness, "USA/China", "BID US 2\nBID CH 0")
    send(harness, "Soviet", "BID RU 1")
    reply = send(harness, "France/Commonwealth", "BID CW 0\nBID FR 0")
    assert "Every power has bid" in reply
    send(harness, "France/Commonwealth", "STAY CW\nSTAY FR")
    send(harness, "USA/China", "STAY US\nSTAY CH")
    code, state = open_state(harness)
    assert code == "MJ1936C1"  # the weather was rolled on the GM's chart
    assert state.weather in ("Fine", "Rain", "Storm")
    order = [power for power, _ in state.political.order]  # type: ignore[union-attr]
    assert set(order) == {"IT", "US", "RU"}
    while code.startswith("MJ1936C"):
        send(harness, OWNER[state.political.current_power], f"PASS {state.political.current_power}")  # type: ignore
        code, state = open_state(harness)
    assert code == "MJ1936E"
    reply = gm(harness, "DOD3 OBJECTIVES FR 7\nDOD3 OBJECTIVES CW 20\nDOD3 OBJECTIVES US 18\nDOD3 OBJECTIVES CH 2\n"
                        "DOD3 OBJECTIVES RU 15\nDOD3 OBJECTIVES GE 0\nDOD3 TALLY")
    assert "not printed in the draft: the GM must enter them" in flat(reply)
    reply = gm(harness, "DOD3 SET NEEDED GE 20\nDOD3 SET NEEDED JA 12\nDOD3 NEUTRAL Sao_Paulo CW 6 US 6\nDOD3 TALLY")
    assert "Democrats   holds    48, needs  50: net -2  LEADS" in reply  # during play (issue 22.17)
    assert "Communists  holds    15, needs  17: net -2  LEADS" in reply
    assert "Fascists    holds     0, needs  40: net -40" in reply
    assert "USA/China            20.5 (21) of 20: net 0.5  LEADS" in reply
    assert "France/Commonwealth  27.5 (28) of 30: net -2.5" in reply
    assert "Leading ideology: Democrats and Communists; would win if the game ended now: USA/China" in reply
    gm(harness, "DOD3 PROCESS")
    text = harness.outbox(to="axis@example.com", kind="results")[-1].body_text
    assert "May/Jun 1936" in text and "VICTORY TALLY" in text
    assert "would win if the game ended now: USA/China" in flat(text)
    assert "winning player" not in text
    assert "#0 weather: d10 =" in text
    code, state = open_state(harness)
    assert code == "JA1936A" and state.turn == 3
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, GAME)
        codes = [p.code for p in queries.phases_of(db, game.id)]  # type: ignore[union-attr]
    assert codes[:10] == ["JF1936B"] + [f"JF1936C{i}" for i in range(1, 9)] + ["JF1936D"]
    assert codes[10:13] == ["JF1936E", "MA1936A", "MA1936AM"]
    assert "MJ1936B" in codes and "MJ1936D" in codes


def test_bids_stay_secret_and_foreign_bids_are_refused(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 PROCESS")
    reply = send(harness, "Soviet", "BID CW 3")
    assert "you do not play Commonwealth" in reply
    reply = send(harness, "Soviet", "BID RU 3")
    assert "RU 3" in reply
    harness.send("stranger@example.com", "SIGNON Rgazette wrongpw\nBID RU 9")
    assert "wrong password" in harness.last_reply("stranger@example.com")
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, GAME)
        assert game is not None
        rows = [r for r in db.query(OrderRow).filter(OrderRow.game_id == game.id)]
    assert [(r.power, r.order) for r in rows] == [("RU", "3/1")]
    # The GM's view counts bids but never shows them; other players' mail never names them.
    assert "RU 3" not in gm(harness, "DOD3 STATUS")
    for name, (email, _, _) in PLAYERS.items():
        if name != "Soviet":
            assert not any("RU 3" in m.body_text for m in harness.outbox(to=email))


def test_conquest_ends_the_game_unless_bitter_end(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 CONQUERED RU YES\nDOD3 PROCESS")
    assert game_row(harness).status == "finished"
    text = harness.outbox(to="soviet@example.com", kind="results")[-1].body_text
    assert "THE GAME HAS ENDED: all the major powers of Communists have been conquered" in text


def test_bitter_end_goes_on(harness: Harness, seeds: Seeds) -> None:
    create(harness, bitter_end=True)
    gm(harness, "DOD3 START")
    play_first_turn_passing(harness)
    gm(harness, "DOD3 CONQUERED RU YES\nDOD3 PROCESS")
    assert game_row(harness).status == "active"
    code, state = open_state(harness)
    assert code == "MA1936A" and "RU" in state.track
    send(harness, "Axis", "BID GE 1")
    send(harness, "France/Commonwealth", "BID CW 1")
    gm(harness, "DOD3 PROCESS")
    revealed = state_after(harness, "MA1936A")["initiative"]
    assert "RU" not in [e["power"] for e in revealed["entries"]]  # conquered: off the track


def test_option_cost_and_credit_limit_checked(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    reply = send(harness, "Axis", "OPTION GE GE 7")
    assert "no cost entered for GE 7: the GM must give it" in reply
    gm(harness, "DOD3 SET COST GE 7 16")
    reply = send(harness, "Axis", "OPTION GE GE 7")
    assert "cannot afford GE 7" in reply
    reply = send(harness, "Axis", "OPTION GE IT 1")
    assert "another major power's card" in reply
    reply = send(harness, "Axis", "OPTION GE GE 1")
    assert "Germany plays GE 1 (cost 1)" in reply
    code, state = open_state(harness)
    assert state.power("GE").money == 9
    # first turn: one option per power; the next slot (if the roll did not end the step) is Italy's
    assert code in ("JF1936C2", "JF1936E")


def test_deadlines_pass_silent_powers_and_keep_the_track(harness: Harness, seeds: Seeds) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    harness.clock.now = deadline_of(harness) + timedelta(minutes=1)
    assert tick(harness.judge).processed == [GAME]
    code, state = open_state(harness)
    assert code == "JF1936C2" and state.political is not None and state.political.current_power == "IT"
    assert "Germany named no option by the deadline and passes." in \
        harness.outbox(to="axis@example.com", kind="results")[-1].body_text
    assert "Italy to name an option" in harness.outbox(to="axis@example.com", kind="notice")[-1].subject
    for power in ("IT", "CW", "FR", "RU", "JA", "US", "CH"):
        send(harness, OWNER[power], f"PASS {power}")
    gm(harness, "DOD3 PROCESS JF1936E")
    send(harness, "France/Commonwealth", "BID CW 1")
    send(harness, "Axis", "BID GE 1")
    gm(harness, "DOD3 PROCESS")
    code, _ = open_state(harness)
    assert code == "MA1936AM"
    reply = send(harness, "France/Commonwealth", "MOVEDOWN CW BELOW GE")  # GE 1+4 = 5 is above CW 1+3 = 4
    assert "Commonwealth cannot move down: CW can only move down: GE is above it" in reply
    harness.clock.now = deadline_of(harness) + timedelta(minutes=1)
    assert tick(harness.judge).processed == [GAME]  # the short sub-deadline passes
    settled = state_after(harness, "MA1936AM")["initiative"]
    assert settled["move_downs_done"] is True
    assert settled["track"][:2] == ["GE", "CW"]
    assert settled["last_card"] == 2
    reply = gm(harness, "DOD3 PROCESS MA1936A")
    assert "the step is MA1936B, not MA1936A" in flat(reply)


def test_a_dod3_game_needs_its_set_up(harness: Harness) -> None:
    harness.send(GM, "CREATE plain masterpw dod3")
    reply = flat(harness.last_reply(GM))
    assert "Game 'plain' (dod3) created" in reply
    harness.send(GM, "SIGNON master@plain masterpw\nDOD3 PE GE 4")
    assert "has no Days of Decision III set-up (create it with DOD3 CREATE)" in flat(harness.last_reply(GM))
