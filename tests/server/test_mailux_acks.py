"""Issue 8 item 12: acknowledgements list the retreats a unit may make and the orders stored in
advance (PHASE); "All units have orders" is not said of builds."""

from __future__ import annotations

import pytest

from tests.server.conftest import Harness, player, signon

GM = "gm@example.com"


def _process(harness: Harness) -> None:
    harness.send(GM, "SIGNON master@alpha masterpw\nPROCESS")


def _to_fall_retreats(harness: Harness) -> None:
    harness.send(player("AUSTRIA"), signon("AUSTRIA") + "A Vie-Tyr")
    _process(harness)
    harness.send(player("AUSTRIA"), signon("AUSTRIA") + "F Tri-Ven\nA Tyr S F Tri-Ven")
    harness.send(player("ITALY"), signon("ITALY") + "A Ven H")
    _process(harness)


@pytest.mark.parametrize("layout", ["judge", "zine"])
def test_a_retreat_phase_acknowledgement_lists_the_retreats(started: Harness, layout: str) -> None:
    started.send(GM, f"SIGNON master@alpha masterpw\nSET LAYOUT {layout}")
    _to_fall_retreats(started)
    started.send(player("ITALY"), signon("ITALY"))
    assert "A VEN may retreat to APU, PIE, TUS, or disband." in started.last_reply(player("ITALY"))


def test_advance_orders_are_acknowledged_as_stored(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Par H\nPHASE F1901M\nA Par-Bur")
    reply = started.last_reply(player("FRANCE"))
    assert "Orders stored in advance for F1901M (checked when it begins):\n  A Par-Bur" in reply, reply
    started.send(player("FRANCE"), signon("FRANCE"))
    assert "Orders stored in advance for F1901M" in started.last_reply(player("FRANCE"))


def test_complete_builds_are_not_called_units_with_orders(started: Harness) -> None:
    _to_fall_retreats(started)
    started.send(player("ITALY"), signon("ITALY") + "A Ven D")
    _process(started)
    started.send(player("AUSTRIA"), signon("AUSTRIA") + "Build A Vie")
    reply = started.last_reply(player("AUSTRIA"))
    assert "All units have orders" not in reply, reply
    assert "All adjustment orders are in." in reply
