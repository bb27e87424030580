"""Issue 22.15, Small World by mail: the public MAP text keeps the secret starts secret
(rules 6.1-6.2) until the Spring 01 results reveal them; a failed Fast Ferry landing says the
army stayed aboard (Davis rule 2); an A/F order through a canal is refused at acknowledgement
(rule 10.1) even when the same mail boards the fleet and orders it twice."""

from __future__ import annotations

from sqlalchemy import select

from app.db import queries
from app.db.models import Game
from tests.server.conftest import Harness

EIGHT = ["NORTH_AMERICA", "AFRICA", "CHINA", "ISLAM", "RUSSIA", "SOUTH_AMERICA", "WESTERN_EUROPE", "PACIFIC_EMPIRE"]
LETTER = {"NORTH_AMERICA": "N", "CHINA": "C", "WESTERN_EUROPE": "W", "RUSSIA": "R"}
GM = "gm@example.com"


def _create(harness: Harness) -> None:
    harness.send(GM, "CREATE swmap masterpw smallworld\nSET REMINDER 0\nSIGNOFF")
    for number, power in enumerate(EIGHT):
        assert harness.send(f"p{number}@example.com", f"JOIN swmap pw{number} {power}").status == "done"


def _at(harness: Harness, units: dict[str, list[str]]) -> None:
    with harness.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "swmap"))
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        phase.code = "S02M"
        phase.state_before = {"variant": phase.state_before.get("variant", "smallworld"), "phase": "S02M",
                              "units": units, "centers": {"WESTERN_EUROPE": ["ENG", "FRA", "GER", "SPA"]}}
        game.phase = "S02M"


def _send(harness: Harness, power: str, body: str) -> str:
    number = EIGHT.index(power)
    harness.send(f"p{number}@example.com", f"SIGNON {LETTER[power]}swmap pw{number}\n" + body)
    return harness.last_reply(f"p{number}@example.com")


def test_map_text_does_not_tell_the_secret_starts_before_spring_01(harness: Harness) -> None:
    _create(harness)
    harness.send("p0@example.com", "MAP swmap")  # a player of record (a stranger gets no map: issue 18.3)
    text = harness.last_reply("p0@example.com")
    assert "A PEK or F PEK (undeclared)" in text, text
    assert "F FRA/NC or F FRA/SC (undeclared)" in text, text
    assert "F ARA/EC or F ARA/WC (undeclared)" in text and "F LEN/SC or F LEN/NC (undeclared)" in text, text
    plain = text.replace("A PEK or F PEK", "").replace("F FRA/NC or F FRA/SC", "")
    assert "A PEK" not in plain and "F FRA/NC" not in plain, text
    # The Spring 01 results reveal them: China declared a fleet, Western Europe holds on the south coast.
    _send(harness, "CHINA", "F Peking - Yellow Sea")
    _send(harness, "WESTERN_EUROPE", "F France/sc H")
    harness.send(GM, "SIGNON master@swmap masterpw\nPROCESS")
    harness.send("p0@example.com", "MAP swmap")
    after = harness.last_reply("p0@example.com")
    assert "undeclared" not in after, after
    assert "F YEL" in after and "F FRA/SC" in after, after


def test_a_failed_fast_ferry_landing_says_the_army_stayed_aboard(harness: Harness) -> None:
    _create(harness)
    _at(harness, {"WESTERN_EUROPE": ["A ENG", "F NTH"], "RUSSIA": ["A SCA"]})
    _send(harness, "WESTERN_EUROPE", "F North Sea Fast Ferry A England - Scandinavia\nA England - Scandinavia")
    _send(harness, "RUSSIA", "A Scandinavia H")
    harness.send(GM, "SIGNON master@swmap masterpw\nPROCESS")
    results = harness.outbox(to="p6@example.com", kind="results")[-1].body_text
    line = next(x for x in results.splitlines() if "Army England ->" in x)
    assert line.endswith("(*bounce, the army stays aboard*)"), results
    with harness.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "swmap"))
        assert game is not None
        state = queries.phases_of(db, game.id)[-1].state_after
        assert state is not None and state["units"]["WESTERN_EUROPE"] == ["A/F NTH"]


def test_an_af_through_the_panama_canal_is_refused_at_acknowledgement(harness: Harness) -> None:
    _create(harness)
    _at(harness, {"NORTH_AMERICA": ["A MEX", "F CAR"]})
    reply = _send(harness, "NORTH_AMERICA",
                  "A Mexico boards F Caribbean\nA/F Caribbean - Galapagos\nF Caribbean - Galapagos")
    assert reply.count("Panama Canal is closed to A/Fs") == 2, reply
    assert "rule 10.1" in reply, reply
    orders = reply.split("Current orders for")[-1].split("End of orders.")[0]
    assert "GAL" not in orders, reply
