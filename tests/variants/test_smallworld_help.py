"""Issue 9.9: every order the Small World HELP text shows is one the judge accepts."""

from __future__ import annotations

import re

import pytest

from app import jsonapi
from app.variants import help_section

V = "smallworld"
ARMY_FLEET_HELP = help_section(V) or ""  # variants/smallworld/help.txt, declared by its variant.toml
WE = "WESTERN_EUROPE"
AT_SEA = {WE: ["A SPA", "F MAO", "F WMS", "A/F NWG", "A LON", "F NTH"]}

EXAMPLES = [
    (AT_SEA, "S02M", WE, "A Spain boards F Mid-Atlantic"),
    ({WE: ["A/F MAO"]}, "S02M", WE, "A/F Mid-Atlantic - Western Mediterranean"),
    (AT_SEA, "S02M", WE, "A/F Norwegian Sea - Scandinavia"),
    (AT_SEA, "S02M", WE, "A/F Norwegian Sea disembarks Scandinavia"),
    (AT_SEA, "S02M", WE, "A disembarks Scandinavia"),
    (AT_SEA, "S02M", WE, "F North Sea Fast Ferry A London - Norway"),
    (AT_SEA, "S02M", WE, "F North Sea C A London - Norway"),
    (None, "S01M", "CHINA", "F Peking - Yellow Sea"),
    (None, "S01M", "ISLAM", "F Arabia/EC - Arabian Sea"),
]


@pytest.mark.parametrize("units, phase, power, line", EXAMPLES)
def test_help_examples_are_accepted(units, phase, power, line):
    assert line in ARMY_FLEET_HELP
    state = jsonapi.initial_state(V) if units is None else {"variant": V, "phase": phase, "units": units}
    [check] = jsonapi.check_orders(state, power, [line])
    assert check["error"] is None, check


def test_help_davis_example_is_accepted_as_one_set():
    lines = ["A Spain boards F Western Mediterranean", "A/F Western Mediterranean - Eastern Mediterranean - Greece"]
    for line in lines:
        assert line in ARMY_FLEET_HELP
    state = {"variant": V, "phase": "S02M", "units": {WE: ["A SPA", "F WMS"]}}
    assert [c["error"] for c in jsonapi.check_orders(state, WE, lines)] == [None, None]


def test_an_af_convoy_mistake_suggests_the_af_order():
    state = {"variant": V, "phase": "S02M", "units": {"NORTH_AMERICA": ["A MEX", "F GOM"]}}
    [check] = jsonapi.check_orders(state, "NORTH_AMERICA", ["F GOM C A MEX - VEN"])
    assert "on no convoy route" in check["error"]
    assert re.search(r"A MEX boards F GOM .*A/F GOM", check["error"]), check


def test_standard_convoy_mistake_has_no_af_hint():
    state = {"variant": "standard", "phase": "S1901M", "units": {"ENGLAND": ["A LON", "F ENG", "F IRI"]}}
    [check] = jsonapi.check_orders(state, "ENGLAND", ["F IRI C A LON - BRE"])
    assert check["error"] and "boards" not in check["error"]
