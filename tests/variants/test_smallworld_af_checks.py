"""Issue 9.5: every A/F order form that docs/rules.md documents is accepted when it is
checked on arrival (the mail path), exactly as `judge adjudicate` accepts it."""

from __future__ import annotations

import pytest

from app import jsonapi
from tests.variants._play import adjudicate, outcome

EIGHT = "smallworld"

CHINA_AT_SEA = {"CHINA": ["A CAN", "F SCS"]}
DAVIS = {"WESTERN_EUROPE": ["A SPA", "F WMS"]}
AFLOAT = {"WESTERN_EUROPE": ["A/F NWG"]}

FORMS = [
    # board, sail and land in one move (issue 9.5: Canton, South China Sea, Bay of Bengal, Burma)
    (CHINA_AT_SEA, "CHINA", ["A Canton boards F South China Sea", "A/F South China Sea - Bay of Bengal",
                             "A disembarks Burma"], {"A BUR", "F BOB"}),
    (CHINA_AT_SEA, "CHINA", ["A Canton boards F South China Sea", "A/F South China Sea - Bay of Bengal - Burma"],
     {"A BUR", "F BOB"}),
    (CHINA_AT_SEA, "CHINA", ["A CAN boards F SCS", "A/F SCS - BOB - BUR"], {"A BUR", "F BOB"}),
    (DAVIS, "WESTERN_EUROPE", ["A SPA boards F WMS", "A/F WMS - EMS", "A disembarks GRE"], {"A GRE", "F EMS"}),
    # the fleet's own order in the boarding turn
    (DAVIS, "WESTERN_EUROPE", ["A SPA boards F WMS", "F WMS - EMS"], {"A/F EMS"}),
    (DAVIS, "WESTERN_EUROPE", ["A SPA boards F WMS", "A/F WMS - EMS"], {"A/F EMS"}),
    (DAVIS, "WESTERN_EUROPE", ["A SPA boards F WMS"], {"A/F WMS"}),
    # landing, in the three forms
    (AFLOAT, "WESTERN_EUROPE", ["A/F NWG - SCA"], {"A SCA", "F NWG"}),
    (AFLOAT, "WESTERN_EUROPE", ["A/F NWG disembarks SCA"], {"A SCA", "F NWG"}),
    (AFLOAT, "WESTERN_EUROPE", ["A disembarks SCA"], {"A SCA", "F NWG"}),
    (AFLOAT, "WESTERN_EUROPE", ["A/F NWG - NTH"], {"A/F NTH"}),
]


@pytest.mark.parametrize("units, power, lines, after", FORMS)
def test_every_documented_af_form_is_accepted_on_arrival_and_adjudicated(units, power, lines, after):
    state = {"variant": EIGHT, "phase": "S02M", "units": units}
    checks = jsonapi.check_orders(state, power, lines)
    assert [c["error"] for c in checks] == [None] * len(lines), checks
    stored = [c["order"] for c in checks]
    result = adjudicate(EIGHT, "S02M", units, {power: stored})  # the orders as the mail stores them
    assert set(result["units"][power]) == after, result["orders"]
    written = adjudicate(EIGHT, "S02M", units, {power: lines})  # and as written, by `judge adjudicate`
    assert set(written["units"][power]) == after
    for line in lines:
        assert outcome(written, line) == "succeeds"


@pytest.mark.parametrize(
    "units, power, lines, refused",
    [
        # still refused: landing where no A/F of the power can reach
        (AFLOAT, "WESTERN_EUROPE", ["A disembarks GER"], "A disembarks GER"),
        # a boarded fleet's order that the A/F cannot take is refused on arrival too
        (DAVIS, "WESTERN_EUROPE", ["A SPA boards F WMS", "F WMS C A NAF - SPA"], "F WMS C A NAF - SPA"),
    ],
)
def test_af_orders_that_cannot_work_are_still_refused(units, power, lines, refused):
    state = {"variant": EIGHT, "phase": "S02M", "units": units}
    checks = {c["line"]: c for c in jsonapi.check_orders(state, power, lines)}
    assert checks[refused]["error"], checks
