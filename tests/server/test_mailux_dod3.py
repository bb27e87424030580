"""DoD III in the mail door: replies to a mail without a subject titled by the ruleset ("DoD3 game step"), and a plain STATUS or
SUMMARY in a DoD III game answers with the game's status report."""

from __future__ import annotations

from tests.dod3.mailgame import GAME, GM, PLAYERS, SIGNON, create, gm
from tests.server.conftest import Harness


def test_a_dod3_reply_is_titled_by_its_ruleset(harness: Harness) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    harness.send(GM, f"SIGNON master@{GAME} masterpw\nSTATUS", subject="")  # no subject: the ruleset's title
    reply = harness.outbox(to=GM, kind="reply")[-1]
    assert reply.subject.startswith(f"DoD3 {GAME} "), reply.subject
    assert "Diplomacy" not in reply.subject


def test_plain_status_and_summary_show_the_dod3_report(harness: Harness) -> None:
    create(harness)
    gm(harness, "DOD3 START")
    email = PLAYERS["Soviet"][0]
    harness.send(email, SIGNON["Soviet"] + "STATUS\nSUMMARY")
    reply = harness.last_reply(email)
    assert reply.count("Open step") == 2, reply
    assert "Current orders" not in reply
    harness.send(GM, f"SIGNON master@{GAME} masterpw\nSUMMARY {GAME}")
    assert "Open step" in harness.last_reply(GM)


def test_map_of_a_dod3_game_says_it_has_none(harness: Harness) -> None:
    create(harness)
    harness.send("someone@example.com", f"MAP {GAME}")
    reply = harness.last_reply("someone@example.com")
    assert f"Error: game '{GAME}' has no map" in reply
    assert harness.outbox(to="someone@example.com")[-1].map_id is None


def test_a_players_status_keeps_the_reports_rules_whole(harness: Harness) -> None:
    """Issue 22 item 18: the ``===`` lines of the report are not wrapped, in either layout."""
    create(harness)
    gm(harness, "DOD3 START")
    email = PLAYERS["Soviet"][0]
    for layout in ("judge", "zine"):
        harness.send(GM, f"SIGNON master@{GAME} masterpw\nSET LAYOUT {layout}")
        harness.send(email, SIGNON["Soviet"] + "STATUS")
        reply = harness.last_reply(email)
        rules = [line for line in reply.splitlines() if line.strip().startswith("==")]
        assert rules and all(line == "=" * 72 for line in rules), (layout, reply)
