"""Issue 8 item 15: HELP shows the sender's commands first (DoD III ones only in DoD III games),
LIST answers right under its line, and the GM reads the acknowledgement of PROCESS before the results."""

from __future__ import annotations

import pytest

from tests.server.conftest import Harness, player, signon

GM = "gm@example.com"
MASTER = "Commands for the game master:"
PLAYERS = "Commands for players:"
EVERYONE = "Commands for everyone:"


def _order(text: str, *headings: str) -> list[int]:
    return [text.index(heading) for heading in headings]


@pytest.mark.parametrize(
    ("sender", "body", "first"),
    [
        (GM, "SIGNON master@alpha masterpw\nHELP", (MASTER, PLAYERS, EVERYONE)),
        (player("FRANCE"), signon("FRANCE") + "HELP", (PLAYERS, EVERYONE, MASTER)),
        ("stranger@example.com", "HELP", (EVERYONE, PLAYERS, MASTER)),
    ],
)
def test_help_lists_the_senders_commands_first(started: Harness, sender: str, body: str,
                                               first: tuple[str, ...]) -> None:
    started.send(sender, body)
    reply = started.last_reply(sender)
    positions = _order(reply, *first)
    assert positions == sorted(positions), reply
    assert "PROCESS [S1901M]" in reply.split(MASTER)[1].split("\n\n")[0]
    assert "BID <power>" not in reply and "DOD3 SEAT" not in reply  # no DoD III commands in a map game


def test_help_in_a_dod3_game_shows_its_commands(harness: Harness) -> None:
    harness.send(GM, "DOD3 CREATE helpgame secretpw PRESET 5\nHELP")
    reply = harness.last_reply(GM)
    gm_part = reply.split(MASTER)[1].split(PLAYERS)[0]
    assert "DOD3 SEAT" in gm_part and "DOD3 START" in gm_part
    assert "BID <power>" in reply


def test_list_answers_under_its_own_line(started: Harness) -> None:
    started.send(player("ITALY"), "LIST\nLIST alpha\nHISTORY alpha")
    reply = started.last_reply(player("ITALY"))
    assert reply.index("> LIST\n") < reply.index("Games on this judge") < reply.index("> LIST alpha")
    assert reply.index("> LIST alpha") < reply.index("Game 'alpha'") < reply.index("> HISTORY alpha")


def test_the_gm_reads_the_acknowledgement_of_process_before_the_results(started: Harness) -> None:
    started.send(GM, "SIGNON master@alpha masterpw\nPROCESS")
    kinds = [row.kind for row in started.outbox(to=GM)]
    assert "results" in kinds
    assert kinds.index("reply") < kinds.index("results"), kinds
    assert "Processed S1901M" in started.last_reply(GM)
