"""Issue 9.5 by mail: every A/F order form docs/rules.md documents is accepted in a mail and
adjudicated as `judge adjudicate` does."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.db import queries
from app.db.models import Game
from tests.server.conftest import Harness

EIGHT = ["NORTH_AMERICA", "AFRICA", "CHINA", "ISLAM", "RUSSIA", "SOUTH_AMERICA", "WESTERN_EUROPE", "PACIFIC_EMPIRE"]
LETTER = {"CHINA": "C", "WESTERN_EUROPE": "W"}


def _game_at(harness: Harness, units: dict[str, list[str]]) -> None:
    harness.send("gm@example.com", "CREATE swaf masterpw smallworld\nSET REMINDER 0\nSIGNOFF")
    for number, power in enumerate(EIGHT):
        out = harness.send(f"p{number}@example.com", f"JOIN swaf pw{number} {power}")
        assert out.status == "done", out
    with harness.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "swaf"))
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        phase.code = "S02M"
        phase.state_before = {"variant": phase.state_before.get("variant", "smallworld"), "phase": "S02M",
                              "units": units, "centers": {"CHINA": ["CAN", "MUK", "PEK"]}}
        game.phase = "S02M"


FORMS = [
    ("CHINA", ["A CAN", "F SCS"], ["A Canton boards F South China Sea", "A/F South China Sea - Bay of Bengal",
                                   "A disembarks Burma"], ["A BUR", "F BOB"]),
    ("CHINA", ["A CAN", "F SCS"], ["A Canton boards F South China Sea", "A/F South China Sea - Bay of Bengal - Burma"],
     ["A BUR", "F BOB"]),
    ("CHINA", ["A CAN", "F SCS"], ["A Canton boards F South China Sea", "F South China Sea - Bay of Bengal"],
     ["A/F BOB"]),
    ("WESTERN_EUROPE", ["A/F NWG"], ["A/F Norwegian Sea - Scandinavia"], ["A SCA", "F NWG"]),
    ("WESTERN_EUROPE", ["A/F NWG"], ["A/F Norwegian Sea disembarks Scandinavia"], ["A SCA", "F NWG"]),
    ("WESTERN_EUROPE", ["A/F NWG"], ["A disembarks Scandinavia"], ["A SCA", "F NWG"]),
    ("WESTERN_EUROPE", ["A LON", "F NTH"], ["F North Sea Fast Ferry A London - Norway", "A London - Norway"],
     ["A SCA", "F NTH"]),  # London is England, Norway is Scandinavia
]


@pytest.mark.parametrize("power, units, lines, after", FORMS)
def test_af_forms_by_mail(harness: Harness, power: str, units: list[str], lines: list[str], after: list[str]) -> None:
    _game_at(harness, {power: units})
    number = EIGHT.index(power)
    harness.send(f"p{number}@example.com", f"SIGNON {LETTER[power]}swaf pw{number}\n" + "\n".join(lines))
    reply = harness.last_reply(f"p{number}@example.com")
    assert "Error" not in reply and "rror:" not in reply, reply
    harness.send("gm@example.com", "SIGNON master@swaf masterpw\nPROCESS")
    with harness.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "swaf"))
        assert game is not None
        done = queries.phases_of(db, game.id)[-1]
        assert done.code == "S02M" and done.state_after is not None
        assert sorted(done.state_after["units"][power]) == sorted(after), done.results
