"""Winter adjustments, row by row: builds, waives, removals, the default for units a
power did not remove (civil disorder in both editions, Small World's least impact),
and the A/F counted as two units. Each row says why it is there."""

from __future__ import annotations

import pytest

from tests.engine._tables import Row, check, params

W = "W1901A"
GERMANY_ONE_BUILD = {"GERMANY": ["BER", "KIE", "MUN", "DEN"]}  # four centres ...
GERMANY_UNITS = {"GERMANY": ["A DEN", "A RUH", "A SIL"]}  # ... three units: one build

BUILDS = [
    Row("build-home", "a build in an owned, empty home centre is carried out",
        GERMANY_UNITS, {"GERMANY": ["BUILD A BER"]}, {"BUILD A BER": "succeeds"},
        after={"GERMANY": ["A DEN", "A RUH", "A SIL", "A BER"]}, phase=W, centers=GERMANY_ONE_BUILD),
    Row("build-too-many", "builds are taken in order (DATC 4.D.4): the second of one allowed fails as too many",
        GERMANY_UNITS, {"GERMANY": ["BUILD A BER", "BUILD F KIE"]},
        {"BUILD A BER": "succeeds", "BUILD F KIE": "fails:too_many"},
        after={"GERMANY": ["A DEN", "A RUH", "A SIL", "A BER"]}, phase=W, centers=GERMANY_ONE_BUILD,
        explains={"BUILD F KIE": "1 build allowed"}),
    Row("waive-uses-a-build", "an explicit waive (DATC 4.D.7) uses the build: a later build is one too many",
        GERMANY_UNITS, {"GERMANY": ["WAIVE", "BUILD A BER"]},
        {"WAIVE": "succeeds:waived", "BUILD A BER": "fails:too_many"},
        after=GERMANY_UNITS, phase=W, centers=GERMANY_ONE_BUILD),
    Row("unordered-build-waived", "a build not ordered is waived by the judge (a default entry says so)",
        GERMANY_UNITS, {}, {"WAIVE": "succeeds:waived"}, after=GERMANY_UNITS, phase=W, centers=GERMANY_ONE_BUILD),
    Row("build-not-home", "Denmark is owned but no German home centre",
        {"GERMANY": ["A RUH", "A SIL"]}, {"GERMANY": ["BUILD A DEN"]}, {"BUILD A DEN": "invalid:illegal"},
        phase=W, centers=GERMANY_ONE_BUILD),
    Row("build-home-not-owned", "a home centre owned by another power is no build site",
        {"GERMANY": ["A RUH"], "FRANCE": ["A BUR"]}, {"GERMANY": ["BUILD A MUN"]}, {"BUILD A MUN": "invalid:illegal"},
        phase=W, centers={"GERMANY": ["BER", "KIE", "DEN"], "FRANCE": ["MUN", "PAR", "MAR", "BRE"]}),
    Row("build-occupied", "a build in an occupied centre is refused",
        {"GERMANY": ["A BER", "A RUH"]}, {"GERMANY": ["BUILD A BER"]}, {"BUILD A BER": "invalid:illegal"},
        phase=W, centers=GERMANY_ONE_BUILD),
    Row("fleet-inland", "DATC 4.C.4 choice a: a fleet build inland fails, no army instead",
        GERMANY_UNITS, {"GERMANY": ["BUILD F MUN"]}, {"BUILD F MUN": "invalid:illegal"},
        after=GERMANY_UNITS, phase=W, centers=GERMANY_ONE_BUILD),
    Row("build-without-type-inland", "DATC 4.C.3 choice c: a build without type inland is an army",
        GERMANY_UNITS, {"GERMANY": ["BUILD MUN"]}, {"BUILD MUN": "succeeds"},
        after={"GERMANY": ["A DEN", "A RUH", "A SIL", "A MUN"]}, phase=W, centers=GERMANY_ONE_BUILD),
    Row("fleet-needs-coast", "a fleet built in St Petersburg must name its coast",
        {"RUSSIA": ["A MOS"]}, {"RUSSIA": ["BUILD F STP"]}, {"BUILD F STP": "invalid:illegal"},
        phase=W, centers={"RUSSIA": ["MOS", "STP"]}),
    Row("fleet-with-coast", "... and is built on the coast named",
        {"RUSSIA": ["A MOS"]}, {"RUSSIA": ["BUILD F STP/NC"]}, {"BUILD F STP/NC": "succeeds"},
        after={"RUSSIA": ["A MOS", "F STP/NC"]}, phase=W, centers={"RUSSIA": ["MOS", "STP"]}),
    Row("two-builds-one-site", "DATC 4.D.5: a second build in the same centre fails",
        {"GERMANY": ["A RUH"]}, {"GERMANY": ["BUILD A BER", "BUILD F BER"]},
        {"BUILD A BER": "succeeds", "BUILD F BER": "fails:too_many"},
        after={"GERMANY": ["A RUH", "A BER"]}, phase=W, centers={"GERMANY": ["BER", "KIE", "MUN"]}),
]

REMOVALS = [
    Row("remove-ordered", "an ordered removal is carried out", {"GERMANY": ["A BER", "A RUH", "A SIL"]},
        {"GERMANY": ["REMOVE A SIL"]}, {"REMOVE A SIL": "succeeds"}, after={"GERMANY": ["A BER", "A RUH"]},
        phase=W, centers={"GERMANY": ["BER", "KIE"]}),
    Row("remove-too-many", "DATC 4.D.6: removals are taken in order; one owed, the second fails",
        {"GERMANY": ["A BER", "A RUH", "A SIL"]}, {"GERMANY": ["REMOVE A SIL", "REMOVE A RUH"]},
        {"REMOVE A SIL": "succeeds", "REMOVE A RUH": "fails:too_many"}, after={"GERMANY": ["A BER", "A RUH"]},
        phase=W, centers={"GERMANY": ["BER", "KIE"]}),
    Row("remove-foreign", "a power cannot remove another power's unit; its own removal then falls to the default",
        {"GERMANY": ["A BER", "A RUH", "A SIL"], "FRANCE": ["A PAR"]}, {"GERMANY": ["REMOVE A PAR"]},
        {"REMOVE A PAR": "invalid:illegal"},
        phase=W, centers={"GERMANY": ["BER", "KIE"], "FRANCE": ["PAR"]}),
    # France owns Paris, Marseilles and Tunis and has four armies: one must go. Burgundy and
    # North Africa are both one move from an owned centre (2023: distance to any owned centre,
    # crossing land and sea), so the alphabetical tie-break removes Burgundy; counted to the
    # home centres (1971), North Africa is two moves from Brest, Burgundy one from Paris.
    Row("civil-disorder-2023", "2023 civil disorder (DATC 4.D.8): distance to the nearest owned centre",
        {"FRANCE": ["A PAR", "A MAR", "A BUR", "A NAF"]}, {}, {"REMOVE A BUR": "succeeds:civil_disorder"},
        after={"FRANCE": ["A PAR", "A MAR", "A NAF"]}, phase=W, centers={"FRANCE": ["PAR", "MAR", "TUN"]}),
    Row("civil-disorder-1971", "1971 civil disorder (DATC 4.D.8): distance to the home centres",
        {"FRANCE": ["A PAR", "A MAR", "A BUR", "A NAF"]}, {}, {"REMOVE A NAF": "succeeds:civil_disorder"},
        after={"FRANCE": ["A PAR", "A MAR", "A BUR"]}, phase=W, centers={"FRANCE": ["PAR", "MAR", "TUN"]},
        rules={"edition": "1971"}),
    Row("civil-disorder-fleet-first", "at equal distance a fleet goes before an army (DATC 6.J.7)",
        {"FRANCE": ["A PAR", "A PIC", "F ENG"]}, {}, {"REMOVE F ENG": "succeeds:civil_disorder"},
        after={"FRANCE": ["A PAR", "A PIC"]}, phase=W, centers={"FRANCE": ["PAR", "BRE"]}),
    Row("partial-order-then-default", "a power that orders one of two removals loses the other by the default",
        {"FRANCE": ["A PAR", "A MAR", "A BUR", "A NAF"]}, {"FRANCE": ["REMOVE A PAR"]},
        {"REMOVE A PAR": "succeeds", "REMOVE A BUR": "succeeds:civil_disorder"},
        after={"FRANCE": ["A MAR", "A NAF"]}, phase=W, centers={"FRANCE": ["MAR", "TUN"]}),
]

SMALL_WORLD = [
    # Western Europe owns Germany and Spain and has three units. Spain guards its own centre
    # against the Islamic army in Algeria; Burma is next to the Chinese army in Siam;
    # Germany is farthest from any foreign unit, so least impact removes it. The distance
    # rule (civil disorder, 1976) would remove the fleet in Burma, far from the home centres.
    Row("least-impact", "rule 11.3 least impact: the unit farthest from the action goes, guards stay",
        {"WESTERN_EUROPE": ["A GER", "A SPA", "F BUR"], "ISLAM": ["A ALG"], "CHINA": ["A SIA"]}, {},
        {"REMOVE A GER": "succeeds"},
        after={"WESTERN_EUROPE": ["A SPA", "F BUR"], "ISLAM": ["A ALG"], "CHINA": ["A SIA"]},
        variant="smallworld8", phase="W02A",
        centers={"WESTERN_EUROPE": ["GER", "SPA"], "ISLAM": ["ARA", "EGY", "PER"], "CHINA": ["CAN", "MUK", "PEK"]}),
    Row("least-impact-off-is-distance", "the same position with removal_default = civil_disorder uses distance",
        {"WESTERN_EUROPE": ["A GER", "A SPA", "F BUR"], "ISLAM": ["A ALG"], "CHINA": ["A SIA"]}, {},
        {"REMOVE F BUR": "succeeds:civil_disorder"},
        after={"WESTERN_EUROPE": ["A GER", "A SPA"], "ISLAM": ["A ALG"], "CHINA": ["A SIA"]},
        variant="smallworld8", phase="W02A", rules={"removal_default": "civil_disorder"},
        centers={"WESTERN_EUROPE": ["GER", "SPA"], "ISLAM": ["ARA", "EGY", "PER"], "CHINA": ["CAN", "MUK", "PEK"]}),
    Row("af-counts-two", "rule 10: an A/F is two units for the supply count: three centres, A/F + army, no build",
        {"WESTERN_EUROPE": ["A/F NTH", "A SPA"]}, {"WESTERN_EUROPE": ["BUILD A GER"]},
        {"BUILD A GER": "fails:too_many"}, after={"WESTERN_EUROPE": ["A/F NTH", "A SPA"]},
        variant="smallworld8", phase="W02A", centers={"WESTERN_EUROPE": ["GER", "SPA", "FRA"]}),
    Row("af-removal-owed", "rule 10: two centres and an A/F + army owe one removal",
        {"WESTERN_EUROPE": ["A/F NTH", "A SPA"]}, {"WESTERN_EUROPE": ["REMOVE A SPA"]},
        {"REMOVE A SPA": "succeeds"}, after={"WESTERN_EUROPE": ["A/F NTH"]},
        variant="smallworld8", phase="W02A", centers={"WESTERN_EUROPE": ["GER", "SPA"]}),
]


@pytest.mark.parametrize("row", params(BUILDS))
def test_builds(row: Row) -> None:
    check(row)


@pytest.mark.parametrize("row", params(REMOVALS))
def test_removals(row: Row) -> None:
    check(row)


@pytest.mark.parametrize("row", params(SMALL_WORLD))
def test_small_world_adjustments(row: Row) -> None:
    check(row)
