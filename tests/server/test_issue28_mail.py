"""Issue 28 items 19 and 21 by mail: njudge's SIGNON ?game, and the smaller things veterans noticed."""

from __future__ import annotations

from app.scheduler import tick
from tests.server.conftest import POWERS, Harness, player, signon
from tests.server.test_flow_disorder_notices import _others_hold
from tests.server.test_variant_games import ZEUS_POWERS, _zeus_game

GM = "SIGNON master@alpha masterpw\n"


# -- item 19: SIGNON ?game password joins a forming game (njudge) ------------------------------------

def test_signon_question_mark_game_joins_a_forming_game(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE beta masterpw\nSIGNOFF")
    harness.send("ann@example.com", "SIGNON ?beta annpass1 standard")
    reply = harness.last_reply("ann@example.com")
    assert "> SIGNON ?beta ****\n" in reply and "annpass1" not in reply, reply
    assert "Joined game 'beta' (1 of 7 players)." in reply
    harness.send("bob@example.com", "SIGNON ?beta bobpass1 France Germany")
    assert "Joined game 'beta' (2 of 7 players)." in harness.last_reply("bob@example.com")
    harness.send("cat@example.com", "SIGNON ?nosuchgame catpass1")
    assert "Error:" in harness.last_reply("cat@example.com") and "nosuchgame" in harness.last_reply("cat@example.com")
    harness.send("cat@example.com", "SIGNON ? catpass1")
    assert "Error: say which game: SIGNON ?game password" in harness.last_reply("cat@example.com")


def test_the_join_echo_shows_the_preferences_and_hides_the_password(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE beta masterpw\nSIGNOFF")
    harness.send("ann@example.com", "JOIN beta annpass1 France Germany")
    reply = harness.last_reply("ann@example.com")
    assert "> JOIN beta **** France Germany\n" in reply and "annpass1" not in reply, reply


# -- item 21: the smaller ones ----------------------------------------------------------------------

def test_list_counts_the_observers_apart_from_the_powers(started: Harness) -> None:
    started.send("watcher@example.com", "OBSERVE alpha watchpw1")
    started.send(player("ITALY"), "LIST alpha")
    listed = started.last_reply(player("ITALY"))
    rows = listed.split("> LIST alpha\n", 1)[1].splitlines()
    assert [row.split()[0] for row in rows[2:9]] == [p.title() for p in POWERS], listed
    assert rows[9] == "Observers: 1.", listed
    assert "observer" not in "\n".join(rows[2:9])


def test_long_power_names_keep_the_columns_of_list(harness: Harness) -> None:
    powers = ["NORTH_AMERICA", "AFRICA", "CHINA", "ISLAM", "RUSSIA", "SOUTH_AMERICA", "WESTERN_EUROPE"]
    harness.send("gm@example.com", "CREATE swgame masterpw smallworld7\nSIGNOFF")
    for number, power in enumerate(powers):
        harness.send(f"p{number}@example.com", f"JOIN swgame pw{number}xxxx {power}")
    harness.send("x@example.com", "LIST swgame")
    rows = [row for row in harness.last_reply("x@example.com").splitlines() if row.endswith(" active")]
    assert len(rows) == 7 and len({row.index(" active") for row in rows}) == 1, rows
    assert any(row.startswith("  Western Europe ") for row in rows), rows


def test_the_gms_late_powers_are_named_as_the_variant_spells_them(started: Harness) -> None:
    _others_hold(started, "ITALY")
    started.send(player("TURKEY"), signon("TURKEY") + "CLEAR")
    started.clock.advance(hours=49)
    assert tick(started.judge).graced == ["alpha"]
    late = [m.body_text for m in started.outbox(to="gm@example.com", kind="late")][-1]
    assert late == "Late powers in S1901M: Italy, Turkey.\n", late


def test_a_gm_broadcast_is_from_the_gm(started: Harness) -> None:
    started.send("gm@example.com", GM + "BROADCAST\nThe deadline stands.\nENDPRESS")
    press = started.outbox(to=player("FRANCE"), kind="press")[-1].body_text
    assert press.startswith("Broadcast message from the GM to everyone in 'alpha':"), press
    assert "Gm " not in press


def test_resign_carries_a_parting_message(started: Harness) -> None:
    started.send(player("ITALY"), "RESIGN Ialpha pwitaly\nIt was a pleasure, gentlemen.  Good luck.")
    reply = started.last_reply(player("ITALY"))
    assert "not a command" not in reply, reply
    assert "Your parting message was sent to everyone." in reply
    assert "You have resigned Italy; the power is open for TAKEOVER." in reply
    press = started.outbox(to=player("FRANCE"), kind="press")[-1].body_text
    assert "from Italy to everyone" in press and "It was a pleasure, gentlemen." in press
    started.send(player("TURKEY"), signon("TURKEY") + "RESIGN\nPRESS TO Russia\nTake my centres.\nENDPRESS")
    assert "Take my centres." in started.outbox(to=player("RUSSIA"), kind="press")[-1].body_text
    assert not [m for m in started.outbox(to=player("FRANCE"), kind="press") if "Take my centres" in m.body_text]


def test_zeus_names_okhotsk_as_its_rules_do_and_ends_each_sentence_once(harness: Harness) -> None:
    """Rule 3 calls the USSR's fourth centre Okhotsk; U.S.A. and U.S.S.R. end a sentence with one stop."""
    _zeus_game(harness)
    harness.send("ussr@example.com", "SIGNON Szeta pwussr\nBuild F Okhotsk\nBuild A Moscow\nBuild A Leningrad")
    harness.send("gm@example.com", "SIGNON master@zeta masterpw\nPROCESS")
    results = harness.outbox(to="ussr@example.com", kind="results")[-1].body_text
    assert "Builds a fleet in Okhotsk." in results and "Magadan" not in results, results
    harness.send("gm@example.com", "SIGNON master@zeta masterpw\nREPLACE USA newusa@example.com newusapw")
    harness.send("usa@example.com", "SIGNON Azeta pwusa\nSET DRAW")
    mails = [m for m in harness.outbox() if m.recipients[0] in
             {f"{p.lower()}@example.com" for p in ZEUS_POWERS} | {"newusa@example.com", "gm@example.com"}]
    assert any("You are U.S.A.  Sign on with" in m.body_text for m in mails)
    assert any("You are U.S.S.R.  Sign on with" in m.body_text for m in mails)
    doubled = [(m.subject, line) for m in mails for line in m.body_text.splitlines() if ".." in line]
    assert not doubled, doubled


def test_the_zines_ownership_block_is_ascii_indented_and_agrees_with_the_change_column(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET LAYOUT zine")
    started.send(player("FRANCE"), signon("FRANCE") + "A Mar - Spa\nA Par - Bur\nF Bre - Mao")
    started.send("gm@example.com", GM + "PROCESS")
    started.send(player("FRANCE"), signon("FRANCE") + "A Spa H\nA Bur H\nF Mao - Por")
    started.send("gm@example.com", GM + "PROCESS")
    started.send(player("FRANCE"), signon("FRANCE") + "BUILD A Par\nBUILD F Bre")
    started.send("gm@example.com", GM + "PROCESS")
    winter = [m.body_text for m in started.outbox(to=player("ITALY"), kind="results") if "W1901A" in m.subject][-1]
    assert winter.isascii(), winter
    chart = winter.split("SUPPLY CENTRES", 1)[1]
    france = next(line.split() for line in chart.splitlines() if line.strip().startswith("France"))
    assert france[:3] == ["France", "5", "+2"], chart
    assert "  Changed hands: Por -->F, Spa -->F.\n" in winter, winter
    assert "Changed hands: none" not in winter
    ownership = winter.split("OWNERSHIP\n", 1)[1].split("\n\n", 1)[0]
    assert all(line.startswith("  ") and line.strip() for line in ownership.splitlines()), ownership
