"""Issue 22 item 6: press to the master (``M``, ``GM``) and njudge's recipient letters ``M`` and
``O`` among the powers' initials."""

from __future__ import annotations

import pytest

from tests.server.conftest import Harness, player, signon

GM = "gm@example.com"
WATCHER = "watcher@example.com"


def _press_to(harness: Harness, to: str) -> str:
    harness.send(player("FRANCE"), signon("FRANCE") + f"PRESS TO {to}\nMeet me in Burgundy.\nENDPRESS")
    return harness.last_reply(player("FRANCE"))


@pytest.mark.parametrize("to", ["M", "GM", "Master"])
def test_press_to_the_master_says_whom_it_reached(started: Harness, to: str) -> None:
    reply = _press_to(started, to)
    assert "Press sent to the GM (1 mail)." in reply, reply
    press = started.outbox(to=GM, kind="press")
    assert len(press) == 1 and "Message from France to the GM in 'alpha':" in press[0].body_text, press
    assert not [m for m in started.outbox(kind="press") if m.recipients[0] != GM]


def test_all_but_takes_njudges_master_and_observer_letters(started: Harness) -> None:
    started.send(WATCHER, "OBSERVE alpha pw")
    reply = _press_to(started, "ALL BUT RTMO")
    assert "Press sent to Austria, England, Germany, Italy (4 mails)." in reply, reply
    reached = sorted(m.recipients[0] for m in started.outbox(kind="press"))
    assert reached == sorted(player(p) for p in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY"))


def test_initials_with_m_and_o_reach_the_master_and_the_observers(started: Harness) -> None:
    started.send(WATCHER, "OBSERVE alpha pw")
    reply = _press_to(started, "EMO")
    assert "Press sent to England, the GM, the observers (3 mails)." in reply, reply
    reached = sorted(m.recipients[0] for m in started.outbox(kind="press"))
    assert reached == sorted([player("ENGLAND"), GM, WATCHER])
