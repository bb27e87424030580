"""Issue 9.6: a secret starting coast or type is undeclared until revealed; the order that
declares it replaces the default (no phantom unit "still without orders")."""

from __future__ import annotations

import pytest

from app import jsonapi
from app.db import queries
from app.services.orders.submit import seat_statuses
from tests.server.conftest import Harness
from tests.support.units import unit

SMALL_WORLD_7 = ["NORTH_AMERICA", "AFRICA", "CHINA", "ISLAM", "RUSSIA", "SOUTH_AMERICA", "WESTERN_EUROPE"]


@pytest.fixture
def swgame(harness: Harness) -> Harness:
    harness.send("gm@example.com", "CREATE swgame masterpw smallworld7\nSET REMINDER 0\nSIGNOFF")
    for number, power in enumerate(SMALL_WORLD_7):
        assert harness.send(f"p{number}@example.com", f"JOIN swgame pw{number} {power}").status == "done"
    return harness


def _signon(power: str) -> str:
    number = SMALL_WORLD_7.index(power)
    letter = {"NORTH_AMERICA": "N", "AFRICA": "A", "CHINA": "C", "ISLAM": "I", "RUSSIA": "R",
              "SOUTH_AMERICA": "S", "WESTERN_EUROPE": "W"}[power]
    return f"SIGNON {letter}swgame pw{number}\n"


def _send(harness: Harness, power: str, body: str) -> str:
    number = SMALL_WORLD_7.index(power)
    harness.send(f"p{number}@example.com", _signon(power) + body)
    return harness.last_reply(f"p{number}@example.com")


@pytest.mark.parametrize(("power", "order", "shown"), [
    ("CHINA", "F Peking - Yellow Sea", "A PEK or F PEK (undeclared)"),
    ("ISLAM", "F Arabia/wc - Red Sea", "F ARA/EC or F ARA/WC (undeclared)"),
    ("RUSSIA", "F Leningrad/nc H", "F LEN/SC or F LEN/NC (undeclared)"),
])
def test_declaring_order_replaces_the_default(swgame: Harness, power: str, order: str, shown: str) -> None:
    before = _send(swgame, power, "STATUS")
    assert shown in before, before
    after = _send(swgame, power, order)
    assert "Error" not in after, after
    tail = after.split("Current orders for")[-1]
    default = shown.split(" or ")[0]
    assert default not in tail.split("End of orders.")[-1], after


def test_a_fleet_without_a_coast_takes_the_coast_its_move_needs(swgame: Harness) -> None:
    reply = _send(swgame, "ISLAM", "F Arabia - Red Sea")
    assert "cannot reach" not in reply and "Error" not in reply, reply


def test_declared_units_leave_nothing_missing(swgame: Harness) -> None:
    with swgame.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "swgame")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        state = phase.state_before
    declared = {"CHINA": "F Peking - Yellow Sea", "ISLAM": "F Arabia - Red Sea"}
    for power in SMALL_WORLD_7:
        units = jsonapi.orderable(state, power)["units"]
        lines = [declared[power] if power in declared and declared[power][2:5].upper() in u else f"{u} H"
                 for u in units]
        _send(swgame, power, "\n".join(lines))
    with unit(swgame.judge) as uow:
        db = uow.session
        game = queries.game_by_name(db, "swgame")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        missing = {seat.power: status.missing for seat, status in seat_statuses(uow, game, phase)}
    assert all(not m for m in missing.values()), missing


def test_a_later_declaration_replaces_the_earlier_order(swgame: Harness) -> None:
    _send(swgame, "CHINA", "A Peking H")
    reply = _send(swgame, "CHINA", "F Peking - Yellow Sea")
    orders = reply.split("Current orders for")[-1].split("End of orders.")[0]
    assert "F PEK - YEL" in orders and "A PEK" not in orders, reply
