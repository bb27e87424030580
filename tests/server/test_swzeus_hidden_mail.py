"""Issue 9.1 by mail: before S1940M is resolved, orders naming the USA's secret New York or
California unit are accepted alike, whichever site it stands in (Zeus 5 rule 4)."""

from __future__ import annotations

import pytest

from tests.server.conftest import Harness

POWERS = ["BRITAIN", "CHINA", "GERMANY", "ITALY", "JAPAN", "USA", "USSR"]
LETTERS = {"BRITAIN": "B", "JAPAN": "J", "USA": "A"}


def _signon(power: str) -> str:
    return f"SIGNON {LETTERS[power]}zh pw{power.lower()}"


@pytest.mark.parametrize("site", ["California", "New York"])
def test_support_of_the_secret_unit_is_accepted_at_either_site(harness: Harness, site: str) -> None:
    harness.send("gm@example.com", "CREATE zh masterpw zeus5\nSET REMINDER 0\nSIGNOFF")
    for power in POWERS:
        assert harness.send(f"{power.lower()}@example.com", f"JOIN zh pw{power.lower()} {power}").status == "done"
    harness.send("usa@example.com", f"{_signon('USA')}\nBuild F {site}\nBuild A Washington\nBuild F Hawaii")
    harness.send("britain@example.com", f"{_signon('BRITAIN')}\nBuild F Canada/EC")
    harness.send("japan@example.com", f"{_signon('JAPAN')}\nBuild F Tokyo")
    harness.send("gm@example.com", "SIGNON master@zh masterpw\nPROCESS")
    harness.send("britain@example.com", f"{_signon('BRITAIN')}\nF Canada S F New York - North Atlantic")
    british = harness.last_reply("britain@example.com")
    harness.send("japan@example.com", f"{_signon('JAPAN')}\nF Tokyo S F California - Mid Pacific")
    japanese = harness.last_reply("japan@example.com")
    for reply in (british, japanese):
        assert "rror" not in reply and "no unit" not in reply, reply
