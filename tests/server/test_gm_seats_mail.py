"""The mail side of issue 28's GM items: DUMMY and REVIVE (DPjudge's words, item 7); PROMOTE, DEMOTE
and HANDOVER (njudge's PROMOTE, item 5); the SET commands of one mail told to the players in one
notice (item 1); the GM's own press held to no press rule (item 6); NOTE in the audit (item 2); and
the mail's refusals still worded as they always were (issue 27.2)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from sqlalchemy import select

from app.db.models import AuditEntry, Game, Player
from app.db.models_web import CoMaster, GmAccount
from tests.server.conftest import POWERS, Harness, player, signon

MASTER = "SIGNON master@alpha masterpw\n"


def _seat(h: Harness, power: str) -> Player:
    with h.judge.sessions() as db:
        seat = db.scalar(select(Player).where(Player.power == power))
        assert seat is not None
        db.expunge(seat)
        return seat


def _game(h: Harness) -> Game:
    with h.judge.sessions() as db:
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None
        db.expunge(game)
        return game


def test_dummy_puts_a_power_into_civil_disorder_and_revive_gives_it_back(started: Harness) -> None:
    h = started
    h.send("gm@example.com", MASTER + "DUMMY Italy")
    reply = h.last_reply("gm@example.com")
    assert "Italy is in civil disorder; the board is told. REVIVE Italy gives it back to italy@example.com." in reply
    assert _seat(h, "ITALY").status == "dummy"
    board = [m for m in h.outbox(kind="notice") if m.subject == "Diplomacy game alpha: Italy in civil disorder"]
    assert sorted(r for m in board for r in m.recipients) == sorted([player(p) for p in POWERS] + ["gm@example.com"])
    h.send(player("ITALY"), signon("ITALY") + "A Ven - Pie")
    assert "wrong password" in h.last_reply(player("ITALY"))  # the player can no longer act for it
    h.send("gm@example.com", MASTER + "STATUS")
    assert "civil disorder (DUMMY)" in h.last_reply("gm@example.com")
    h.send("gm@example.com", MASTER + "DUMMY Italy")
    assert "Italy is not played now (dummy)" in h.last_reply("gm@example.com")
    h.send("gm@example.com", MASTER + "REVIVE Italy")
    assert "Italy is played again by italy@example.com (mailed a new password)" in h.last_reply("gm@example.com")
    welcome = h.outbox(to=player("ITALY"), kind="start")[-1]
    assert welcome.subject == "Diplomacy game alpha: you play Italy again" and welcome.reply_to
    password = re.search(r"Your password is (\w+)\.", welcome.body_text)
    assert password and password.group(1) not in h.last_reply("gm@example.com")  # mailed to the player only
    h.send(player("ITALY"), f"SIGNON Ialpha {password.group(1)}\nA Ven - Pie")
    assert "Stored" in h.last_reply(player("ITALY")) or "A VEN - PIE" in h.last_reply(player("ITALY"))
    assert _seat(h, "ITALY").status == "active"
    h.send("gm@example.com", MASTER + "REVIVE France")
    assert "France is not in civil disorder, abandoned or resigned" in h.last_reply("gm@example.com")


def test_promote_demote_and_a_handover_only_to_a_co_gm_that_proved_its_address(started: Harness) -> None:
    h = started
    co = "helper@example.org"
    h.send("gm@example.com", MASTER + f"PROMOTE {co}")
    assert f"{co} is a co-GM of the game" in h.last_reply("gm@example.com")
    assert [m.subject for m in h.outbox(to=co)] == ["Diplomacy game alpha: you are a co-GM"]
    h.send("gm@example.com", MASTER + f"HANDOVER {co}")
    assert f"{co} has not proven its address yet" in h.last_reply("gm@example.com")
    assert _game(h).master_email == "gm@example.com"
    for n in range(5):  # no more than five co-GMs, nor five additions a day: the judge mails a third party
        h.send("gm@example.com", MASTER + f"PROMOTE extra{n}@example.org")
    assert "at most 5" in h.last_reply("gm@example.com")
    h.send("gm@example.com", MASTER + f"DEMOTE {co}")
    assert f"{co} is no longer a co-GM of the game." in h.last_reply("gm@example.com")
    h.send("gm@example.com", MASTER + f"PROMOTE {co}")
    assert "at most 5 co-GMs are added to a game in a day" in h.last_reply("gm@example.com")
    # the co-GM proves its address (a code mailed to it was used): the game can be handed to it
    h.send("gm@example.com", MASTER + "DEMOTE extra0@example.org")
    with h.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None
        db.add(CoMaster(game_id=game.id, email=co, added_by="gm@example.com"))
        db.add(GmAccount(email=co, password_hash="", proven_at=datetime(2026, 3, 1, tzinfo=UTC)))
    h.send("gm@example.com", MASTER + f"HANDOVER {co}")
    assert f"Game 'alpha' is now run by {co} (mailed a new master password)" in h.last_reply("gm@example.com")
    assert _game(h).master_email == co
    mailed = [m for m in h.outbox(to=co) if m.subject == "Diplomacy game alpha: you are its master"]
    password = re.search(r"The master password is (\w+) ", mailed[-1].body_text)
    assert password
    h.send("gm@example.com", MASTER + "PAUSE")
    assert "wrong master password" in h.last_reply("gm@example.com")  # the old password signs on no more
    h.send(co, f"SIGNON master@alpha {password.group(1)}\nPAUSE")
    assert "Game paused." in h.last_reply(co)
    with h.judge.sessions() as db:
        rows = [(a.actor, a.action) for a in db.scalars(select(AuditEntry).order_by(AuditEntry.id))]
    assert ("gm@example.com", "handover") in rows and (co, "pause") in rows


def test_the_set_commands_of_one_mail_are_told_to_the_players_in_one_notice(started: Harness) -> None:
    h = started
    h.send("gm@example.com", MASTER + "SET PRESS grey\nSET NMR hold\nSET MOVE GRACE 0\nSET PRESS white")
    notices = [m for m in h.outbox(kind="notice") if m.subject == "Diplomacy settings changed alpha"]
    assert sorted(r for m in notices for r in m.recipients) == sorted(player(p) for p in POWERS)  # once each
    text = notices[0].body_text
    assert "changed the game's settings in S1901M:" in text
    assert "  NMR policy: cd -> hold" in text and "  Movement grace: 24 h -> 0 h" in text
    assert "Press" not in text  # grey, then white again: no change to tell
    h.send("gm@example.com", MASTER + "SET NMR hold")  # no change: nobody is mailed
    assert len([m for m in h.outbox(kind="notice") if m.subject == "Diplomacy settings changed alpha"]) == 7
    with h.judge.sessions() as db:
        audit = [a.detail for a in db.scalars(select(AuditEntry).where(AuditEntry.action == "set_timing"))]
    assert audit[-1]["changes"] == [["movement grace", "24 h", "0 h"]]


def test_a_forming_games_settings_are_told_to_nobody(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE beta masterpw\nSET PRESS grey\nSET NMR hold\nSIGNOFF")
    harness.send(player("FRANCE"), "JOIN beta pwfrance France")
    harness.send("gm@example.com", "SIGNON master@beta masterpw\nSET NMR cd")
    assert not [m for m in harness.outbox(kind="notice") if m.subject.startswith("Diplomacy settings changed")]


def test_the_gms_own_press_is_held_to_no_press_rule_and_notes_are_audited(started: Harness) -> None:
    h = started
    h.send("gm@example.com", MASTER + "SET PRESS none\nPRESS TO France\nYour orders are late.\nENDPRESS\n"
                                      "NOTE Italy has a new player.\nBROADCAST\nWelcome all.\nENDPRESS")
    press = [m.body_text for m in h.outbox(kind="press") if m.recipients == [player("FRANCE")]]
    assert len(press) == 2 and "Your orders are late." in press[0] and "Welcome all." in press[1]
    h.send(player("FRANCE"), signon("FRANCE") + "PRESS TO Germany\nhello\nENDPRESS")
    assert "has no press" in h.last_reply(player("FRANCE"))  # the players' press is still refused
    with h.judge.sessions() as db:
        details = {a.action: a.detail for a in db.scalars(select(AuditEntry))}
    assert details["press"] == {"to": "France", "text": "Your orders are late."}
    assert details["note"] == {"text": "Italy has a new player."}
    assert details["broadcast"] == {"to": "everyone", "text": "Welcome all."}


def test_the_mails_refusals_keep_their_words(started: Harness) -> None:
    h = started
    h.send("gm@example.com", MASTER + "SET DEADLINE 2020-01-01 10:00")
    assert ("deadline not changed: Wed Jan 01 2020 10:00 UTC is not in the future; to adjudicate the phase now, "
            "use PROCESS") in " ".join(h.last_reply("gm@example.com").split())
    h.send("gm@example.com", MASTER + "SET EARLY soon")
    assert "SET EARLY takes minutes (0 or more), or off" in h.last_reply("gm@example.com")
    h.send(player("FRANCE"), signon("FRANCE") + "SET ABSENCE whenever")
    assert "Error: say SET ABSENCE 2026-12-01 TO 2026-12-07" in h.last_reply(player("FRANCE"))
    h.send("watcher@example.org", "OBSERVE alpha watchpw\nBROADCAST\nhello\nENDPRESS")
    assert "(the GM may allow it: SET PRESS ... OBSERVERS)" in " ".join(h.last_reply("watcher@example.org").split())
