"""Issue 9.9: HELP explains the A/F orders in Small World games only."""

from __future__ import annotations

from tests.server.conftest import Harness


def test_help_in_a_small_world_game_explains_the_af_orders(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE swh masterpw smallworld\nSET REMINDER 0\nSIGNOFF")
    harness.send("gm@example.com", "SIGNON master@swh masterpw\nHELP")
    text = harness.last_reply("gm@example.com")
    for words in ("boards F", "disembarks", "Fast Ferry", "A/F", "F Peking - Yellow Sea", "retreats with your Winter"):
        assert words in text, words


def test_help_elsewhere_has_no_af_orders(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE sth masterpw standard\nSET REMINDER 0\nSIGNOFF")
    harness.send("gm@example.com", "SIGNON master@sth masterpw\nHELP")
    assert "disembarks" not in harness.last_reply("gm@example.com")
    harness.send("x@example.com", "HELP")
    assert "disembarks" not in harness.last_reply("x@example.com")
