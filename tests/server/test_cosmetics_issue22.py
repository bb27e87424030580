"""Issue 22 item 18 and issue 21 item 11: cosmetics of the mails."""

from __future__ import annotations

from tests.server.conftest import Harness
from tests.server.test_variant_games import _zeus_game


def test_a_power_name_ending_in_a_stop_ends_a_sentence_once(harness: Harness) -> None:
    _zeus_game(harness)
    harness.send("usa@example.com", "SIGNON Azeta pwusa\nSET DRAW\nSET CONCEDE USA")
    reply = harness.last_reply("usa@example.com")
    assert "U.S.S.R.\n" in reply and "You concede to U.S.A.\n" in reply, reply
    assert ".." not in reply
