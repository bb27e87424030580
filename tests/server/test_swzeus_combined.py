"""Small World II-R rule 11.2 by mail (issue 8.3): after a Fall move the retreats are sent
with the Winter adjustments, in one mail, for one deadline."""

from __future__ import annotations

from sqlalchemy import select

from app.db import queries
from app.db.models import Game
from tests.server.conftest import Harness

SEVEN = ["NORTH_AMERICA", "AFRICA", "CHINA", "ISLAM", "RUSSIA", "SOUTH_AMERICA", "WESTERN_EUROPE"]
LETTERS = {"AFRICA": "A", "ISLAM": "I"}
FALL = {
    "variant": "smallworld7",
    "phase": "F02M",
    "units": {"AFRICA": ["A SAH", "A ETH", "A LIB"], "ISLAM": ["A CON", "A ALG"]},
    "centers": {"AFRICA": ["SAF", "ETH"], "ISLAM": ["ARA", "EGY", "PER", "CON", "NIG"]},
}


def _game_at_fall(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE swc masterpw smallworld7\nSET REMINDER 0\nSIGNOFF")
    for number, power in enumerate(SEVEN):
        out = harness.send(f"{power.lower()}@example.com", f"JOIN swc pw{number} {power}")
        assert out.status == "done", out
    with harness.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "swc"))
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        phase.code = "F02M"
        phase.state_before = {**FALL, "variant": phase.state_before.get("variant", "smallworld7")}
        game.phase = "F02M"


def _signon(power: str) -> str:
    return f"SIGNON {LETTERS[power]}swc pw{SEVEN.index(power)}"


def test_fall_retreats_and_winter_adjustments_are_one_deadline(harness: Harness) -> None:
    _game_at_fall(harness)
    harness.send("islam@example.com", f"{_signon('ISLAM')}\nA Congo - Sahara\nA Algeria S A Congo - Sahara")
    harness.send("gm@example.com", "SIGNON master@swc masterpw\nPROCESS")
    fall = harness.outbox(to="africa@example.com", kind="results")[-1].body_text
    assert "can retreat to" in fall, fall
    # the table counts the army waiting to retreat, as the engine does: Africa owes a removal
    assert "2 Supply centers,  3 Units:  Removes   1 unit." in fall, fall
    with harness.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "swc"))
        assert game is not None and game.phase == "W02A"  # no F02R: one deadline for both
    # Africa sends its retreat and its removal in one mail; both are acknowledged
    harness.send("africa@example.com", f"{_signon('AFRICA')}\nA Sahara - West Africa\nREMOVE A Libya")
    reply = harness.last_reply("africa@example.com")
    assert "A SAH - WAF" in reply or "A SAH R WAF" in reply, reply
    assert "REMOVE A LIB" in reply, reply
    assert "Error" not in reply, reply
    harness.send("gm@example.com", "SIGNON master@swc masterpw\nPROCESS")
    with harness.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "swc"))
        assert game is not None and game.phase == "S03M"
        phases = queries.phases_of(db, game.id)
        winter = phases[-1]
        assert winter.code == "W02A" and winter.state_after is not None
        assert sorted(winter.state_after["units"]["AFRICA"]) == ["A ETH", "A WAF"]


def test_the_acknowledgement_lists_the_units_still_waiting_to_retreat(harness: Harness) -> None:
    _game_at_fall(harness)
    harness.send("islam@example.com", f"{_signon('ISLAM')}\nA Congo - Sahara\nA Algeria S A Congo - Sahara")
    harness.send("gm@example.com", "SIGNON master@swc masterpw\nPROCESS")
    harness.send("africa@example.com", f"{_signon('AFRICA')}\nREMOVE A Libya")
    reply = harness.last_reply("africa@example.com")
    assert "A SAH" in reply.split("End of orders.")[-1], reply  # still without orders

