"""Issue 9.1: an order naming the USA's secret New York/California build is answered the
same wherever the unit really stands (Zeus 5 rule 4), and decided at resolution."""

from __future__ import annotations

import pytest

from app import jsonapi
from tests.variants._play import adjudicate, entry

V = "zeus5"


def position(site: str, phase: str = "S1940M") -> dict:
    return {
        "variant": V,
        "phase": phase,
        "units": {"USA": [f"F {site}", "A WAS", "F HAW"], "BRITAIN": ["F CAN/EC", "A LON"], "JAPAN": ["F TOK"]},
    }


LINES = [
    ("BRITAIN", "F Can S F Nyk - Nao"),
    ("BRITAIN", "F Can S F Nyk"),
    ("JAPAN", "F Tok S F Cal - Mpo"),
]


@pytest.mark.parametrize("power, line", LINES)
@pytest.mark.parametrize("site", ["NYK", "CAL"])
def test_orders_naming_the_secret_unit_are_accepted_at_either_site(site, power, line):
    [check] = jsonapi.check_orders(position(site), power, [line])
    assert check["error"] is None, check


@pytest.mark.parametrize("power, line", [*LINES, ("JAPAN", "F Tok S F Nyk - Mpo"), ("BRITAIN", "F Can S F Cal - Nao")])
def test_the_answer_does_not_depend_on_the_real_site(power, line):
    answers = [jsonapi.check_orders(position(site), power, [line])[0] for site in ("NYK", "CAL")]
    assert answers[0]["error"] == answers[1]["error"]
    assert answers[0]["order"] == answers[1]["order"]


def test_the_usa_itself_is_checked_against_the_real_position():
    [check] = jsonapi.check_orders(position("CAL"), "USA", ["F Nyk - Nao"])
    assert check["error"] is not None


def test_after_the_reveal_the_real_position_answers():
    [check] = jsonapi.check_orders(position("CAL", "F1940M"), "BRITAIN", ["F Can S F Nyk - Nao"])
    assert check["error"] is not None


def test_the_real_position_decides_at_resolution():
    p = position("CAL")
    result = adjudicate(V, "S1940M", p["units"], {"BRITAIN": ["F Can S F Nyk - Nao"], "JAPAN": ["F Tok S F Cal - Mpo"]})
    assert entry(result, "F Can S F Nyk - Nao")["result"] == "invalid"
    assert entry(result, "F Tok S F Cal - Mpo")["result"] != "invalid"
