"""Issue 28 (the veterans, by mail): what the results print."""

from __future__ import annotations

from tests.server.conftest import Harness
from tests.server.test_variant_games import _zeus_game

ZEUS_GM = "SIGNON master@zeta masterpw\n"


def test_a_void_support_is_one_line_not_a_second_no_order_processed(harness: Harness) -> None:
    """Item 17: Britain supports the USA's secret fleet in New York, which was built in California:
    the support is void at adjudication and the fleet holds; its line says so once."""
    _zeus_game(harness)
    harness.send("usa@example.com", "SIGNON Azeta pwusa\nBuild F California\nBuild A Washington\nBuild F Hawaii")
    harness.send("britain@example.com", "SIGNON Bzeta pwbritain\nBuild F Canada/EC")
    harness.send("gm@example.com", ZEUS_GM + "PROCESS")
    harness.send("britain@example.com", "SIGNON Bzeta pwbritain\nF Canada S F New York")
    assert "rror" not in harness.last_reply("britain@example.com")
    harness.send("gm@example.com", ZEUS_GM + "PROCESS")
    results = harness.outbox(to="britain@example.com", kind="results")[-1].body_text
    canada = [line for line in results.splitlines() if "Canada" in line]
    assert canada == ["Britain: Fleet Canada (east coast) SUPPORT unit New York.  (*void*)"], results
    assert "No Order Processed" not in "\n".join(canada)
