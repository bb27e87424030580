"""Issue 22 item 18 and issue 21 item 11: cosmetics of the mails."""

from __future__ import annotations

from tests.server.conftest import Harness, player, signon
from tests.server.test_variant_games import _zeus_game


def test_a_power_name_ending_in_a_stop_ends_a_sentence_once(harness: Harness) -> None:
    _zeus_game(harness)
    harness.send("usa@example.com", "SIGNON Azeta pwusa\nSET DRAW\nSET CONCEDE USA")
    reply = harness.last_reply("usa@example.com")
    assert "U.S.S.R.  Your vote stands" in reply and "You concede to U.S.A.\n" in reply, reply
    assert ".." not in reply


def test_a_trailing_comment_on_an_order_line_is_ignored(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur // on to Belgium next\nF Bre - Mao//and Spain")
    reply = started.last_reply(player("FRANCE"))
    assert "Error" not in reply, reply
    assert "A PAR - BUR" in reply and "F BRE - MAO" in reply
