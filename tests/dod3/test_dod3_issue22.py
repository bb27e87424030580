"""Issue 22.17: a tally asked for during play says who leads and who would win, never a
"winning player" (only the last one, when the game ends, names winners); the start mail
says how to sign on."""

from __future__ import annotations

from app.dod3.report import tally_lines
from tests.dod3.mailgame import GM, PLAYERS, Harness, Seeds, create, flat, gm, harness, seeds  # noqa: F401

VIEW = {
    "ideologies": {"Democrats": {"objectives": 48, "needed": 50, "net": -2, "winner": True},
                   "Fascists": {"objectives": 0, "needed": 40, "net": -40, "winner": False}},
    "players": [{"player": "USA/China", "objectives": 20.5, "objectives_rounded": 21, "needed": 20, "net": 0.5,
                 "winner": True}],
    "winning_ideologies": ["Democrats"], "winning_players": ["USA/China"],
}


def test_a_tally_during_play_says_leads_and_would_win() -> None:
    text = "\n".join(tally_lines(VIEW, final=False))
    assert "Winning" not in text and "winning" not in text and "WINS" not in text, text
    assert "Democrats   holds    48, needs  50: net -2  LEADS" in text
    assert "USA/China            20.5 (21) of 20: net 0.5  LEADS" in text
    assert "Leading ideology: Democrats; would win if the game ended now: USA/China" in text
    final = "\n".join(tally_lines(VIEW, final=True))
    assert "Winning ideology: Democrats; winning player: USA/China" in final and "LEADS" not in final


def test_the_gm_tally_during_play_by_mail(harness: Harness, seeds: Seeds) -> None:  # noqa: F811
    create(harness)
    gm(harness, "DOD3 START")
    reply = gm(harness, "DOD3 SET NEEDED GE 20\nDOD3 SET NEEDED JA 12\nDOD3 OBJECTIVES FR 7\nDOD3 OBJECTIVES CW 20\n"
                        "DOD3 OBJECTIVES US 18\nDOD3 OBJECTIVES CH 2\nDOD3 OBJECTIVES RU 15\nDOD3 OBJECTIVES GE 0\n"
                        "DOD3 NEUTRAL Sao_Paulo CW 6 US 6\nDOD3 TALLY")
    assert "Winning" not in reply and "winning player" not in reply and "WINS" not in reply, reply
    assert "would win if the game ended now: USA/China" in flat(reply), reply


def test_the_start_mail_says_how_to_sign_on(harness: Harness, seeds: Seeds) -> None:  # noqa: F811
    create(harness)
    gm(harness, "DOD3 START")
    [mail] = harness.outbox(to="usc@example.com", kind="start")
    text = flat(mail.body_text)
    assert "You are USA/China: USA, Nationalist China." in text, mail.body_text
    assert "SIGNON Ugazette <your password> (or Ngazette" in text, mail.body_text
    assert "reply to this mail" in text and mail.reply_to and mail.reply_to.startswith("judge+")
    [axis] = harness.outbox(to=PLAYERS["Axis"][0], kind="start")
    assert "SIGNON Ggazette <your password>" in flat(axis.body_text) and "USA/China" not in flat(
        axis.body_text).split("SIGNING ON")[1].split("THE PLAYERS")[0]
    master = [m for m in harness.outbox(to=GM) if m.kind == "start"]
    assert master and "SIGNON <letter>gazette <password>" in flat(master[-1].body_text)
    # what the mail says works: the letter of either power and the password
    assert harness.send("usc@example.com", "SIGNON Ngazette pwusc\nDOD3 STATUS").status == "done"
    assert "Signed on" in harness.last_reply("usc@example.com")


def test_replying_to_the_start_mail_signs_on_as_it_says(harness: Harness, seeds: Seeds) -> None:  # noqa: F811
    create(harness)
    gm(harness, "DOD3 START")
    [mail] = harness.outbox(to="usc@example.com", kind="start")
    assert mail.reply_to
    assert harness.send("usc@example.com", "DOD3 STATUS", to=mail.reply_to).status == "done"
    reply = harness.last_reply("usc@example.com")
    assert "Error" not in reply and "USA" in reply, reply
