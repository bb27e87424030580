"""The resolver, row by row: strengths, head-to-head battles, support cuts, convoys
and paradoxes, on small standard positions that are not DATC cases (the DATC tables
are in tests/engine/datc/). Each row says why it is there."""

from __future__ import annotations

import pytest

from tests.engine._tables import Row, check, params

STRENGTHS = [
    Row("equal-attacks-bounce", "two unsupported attacks on an empty province both fail and leave it empty",
        {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
        {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
        {"A PAR - BUR": "fails:bounce", "A MUN - BUR": "fails:bounce"},
        after={"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
        explains={"A PAR - BUR": "1 vs 1"}),
    Row("prevent-strength-loses", "a supported attack (2) beats an unsupported one (1) into an empty province",
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
        {"A PAR - BUR": "succeeds", "A MAR S A PAR - BUR": "succeeds", "A MUN - BUR": "fails:bounce"},
        after={"FRANCE": ["A BUR", "A MAR"], "GERMANY": ["A MUN"]},
        explains={"A MUN - BUR": "1 vs 2"}),
    Row("attack-beats-hold", "attack 2 against hold 1 dislodges the holder",
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A BUR H"]},
        {"A PAR - BUR": "succeeds", "A BUR H": "fails:dislodged"},
        after={"FRANCE": ["A BUR", "A MAR"]}),
    Row("supported-hold-stands", "attack 2 against hold 2 bounces: hold support counts for the defender",
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR", "A MUN"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A BUR H", "A MUN S A BUR"]},
        {"A PAR - BUR": "fails:bounce", "A BUR H": "succeeds", "A MUN S A BUR": "succeeds"},
        after={"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR", "A MUN"]},
        explains={"A PAR - BUR": "2 vs 2"}),
    Row("three-beats-two", "attack 3 against hold 2 dislodges: every uncut support adds one",
        {"FRANCE": ["A PAR", "A MAR", "A PIC"], "GERMANY": ["A BUR", "A MUN"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "A PIC S A PAR - BUR"], "GERMANY": ["A BUR H", "A MUN S A BUR"]},
        {"A PAR - BUR": "succeeds", "A BUR H": "fails:dislodged"},
        after={"FRANCE": ["A BUR", "A MAR", "A PIC"], "GERMANY": ["A MUN"]}),
    Row("moving-out-is-no-defence", "a unit that leaves successfully is not attacked: the province is simply entered",
        {"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]},
        {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A BUR - RUH"]},
        {"A PAR - BUR": "succeeds", "A BUR - RUH": "succeeds"},
        after={"FRANCE": ["A BUR"], "GERMANY": ["A RUH"]}),
    Row("failed-leaver-defends-with-1", "a unit whose move fails defends with strength 1, without its hold supports",
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR", "A MUN", "A RUH", "A BEL"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"],
         "GERMANY": ["A BUR - BEL", "A MUN S A BUR", "A RUH H", "A BEL H"]},
        {"A BUR - BEL": "fails:dislodged", "A MUN S A BUR": "fails:void", "A PAR - BUR": "succeeds"},
        after={"FRANCE": ["A BUR", "A MAR"], "GERMANY": ["A MUN", "A RUH", "A BEL"]}),
]

HEAD_TO_HEAD = [
    Row("swap-bounces", "two units swapping without a convoy meet head to head and both stay",
        {"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]},
        {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A BUR - PAR"]},
        {"A PAR - BUR": "fails:bounce", "A BUR - PAR": "fails:bounce"},
        after={"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]}),
    Row("head-to-head-won", "the stronger side of a head-to-head battle dislodges the other",
        {"FRANCE": ["A PAR", "A GAS"], "GERMANY": ["A BUR"]},
        {"FRANCE": ["A PAR - BUR", "A GAS S A PAR - BUR"], "GERMANY": ["A BUR - PAR"]},
        {"A PAR - BUR": "succeeds", "A BUR - PAR": "fails:dislodged"},
        after={"FRANCE": ["A BUR", "A GAS"]},
        explains={"A BUR - PAR": "head-to-head"}),
    Row("third-unit-into-contested", "a third unit (1) moving into the province a head-to-head winner (2) "
        "enters bounces; the loser is dislodged",
        {"FRANCE": ["A PAR", "A GAS"], "GERMANY": ["A BUR", "A MUN"]},
        {"FRANCE": ["A PAR - BUR", "A GAS S A PAR - BUR"], "GERMANY": ["A BUR - PAR", "A MUN - BUR"]},
        {"A PAR - BUR": "succeeds", "A BUR - PAR": "fails:dislodged", "A MUN - BUR": "fails:bounce"},
        after={"FRANCE": ["A BUR", "A GAS"], "GERMANY": ["A MUN"]}),
    Row("circle-of-three", "three units moving in a circle all succeed (no head-to-head)",
        {"FRANCE": ["A PAR", "A BUR", "A PIC"]},
        {"FRANCE": ["A PAR - BUR", "A BUR - PIC", "A PIC - PAR"]},
        {"A PAR - BUR": "succeeds", "A BUR - PIC": "succeeds", "A PIC - PAR": "succeeds"},
        after={"FRANCE": ["A BUR", "A PIC", "A PAR"]}),
    Row("circle-broken-by-bounce", "a circle stops when one of its moves bounces from outside",
        {"FRANCE": ["A PAR", "A BUR", "A PIC"], "ENGLAND": ["A BEL"]},
        {"FRANCE": ["A PAR - BUR", "A BUR - PIC", "A PIC - PAR"], "ENGLAND": ["A BEL - PIC"]},
        {"A PAR - BUR": "fails:bounce", "A BUR - PIC": "fails:bounce", "A PIC - PAR": "fails:bounce",
         "A BEL - PIC": "fails:bounce"},
        after={"FRANCE": ["A PAR", "A BUR", "A PIC"], "ENGLAND": ["A BEL"]}),
    Row("no-self-dislodgement", "a supported attack on a unit of one's own power never dislodges it",
        {"FRANCE": ["A PAR", "A GAS", "A BUR"]},
        {"FRANCE": ["A PAR - BUR", "A GAS S A PAR - BUR", "A BUR H"]},
        {"A PAR - BUR": "fails:bounce", "A BUR H": "succeeds"},
        after={"FRANCE": ["A PAR", "A GAS", "A BUR"]},
        explains={"A PAR - BUR": "own power"}),
    Row("foreign-support-not-against-own", "a power's support does not count for dislodging its own unit",
        {"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A MUN"]},
        {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A BUR H", "A MUN S A PAR - BUR"]},
        {"A PAR - BUR": "fails:bounce", "A BUR H": "succeeds"},
        after={"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A MUN"]}),
]

SUPPORT_CUTS = [
    Row("cut-by-attack", "an attack from a third province cuts a support even when it bounces",
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"], "ITALY": ["A PIE"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A BUR H"], "ITALY": ["A PIE - MAR"]},
        {"A MAR S A PAR - BUR": "fails:cut", "A PAR - BUR": "fails:bounce", "A PIE - MAR": "fails:bounce"},
        after={"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"], "ITALY": ["A PIE"]},
        explains={"A MAR S A PAR - BUR": "A PIE"}),
    Row("not-cut-from-target", "an attack from the province the support goes into does not cut it",
        {"GERMANY": ["A BER", "A SIL"], "RUSSIA": ["A PRU"]},
        {"GERMANY": ["A BER - PRU", "A SIL S A BER - PRU"], "RUSSIA": ["A PRU - SIL"]},
        {"A SIL S A BER - PRU": "succeeds", "A BER - PRU": "succeeds", "A PRU - SIL": "fails:dislodged"},
        after={"GERMANY": ["A PRU", "A SIL"]}),
    Row("cut-by-dislodgement-from-target", "a support is cut when its unit is dislodged, even from the target",
        {"GERMANY": ["A BER", "A SIL"], "RUSSIA": ["A PRU", "A WAR", "A BOH"]},
        {"GERMANY": ["A BER - PRU", "A SIL S A BER - PRU"], "RUSSIA": ["A PRU - SIL", "A WAR S A PRU - SIL", "A BOH S A PRU - SIL"]},
        {"A SIL S A BER - PRU": "fails:dislodged", "A PRU - SIL": "succeeds", "A BER - PRU": "succeeds"},
        after={"GERMANY": ["A PRU"], "RUSSIA": ["A SIL", "A WAR", "A BOH"]}),
    Row("own-attack-does-not-cut", "an attack by the supporter's own power does not cut the support",
        {"FRANCE": ["A PAR", "A MAR", "A GAS"], "GERMANY": ["A BUR"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "A GAS - MAR"], "GERMANY": ["A BUR H"]},
        {"A MAR S A PAR - BUR": "succeeds", "A PAR - BUR": "succeeds", "A GAS - MAR": "fails:bounce"},
        after={"FRANCE": ["A BUR", "A MAR", "A GAS"]}),
    Row("hold-support-to-mover-void", "a hold support to a unit that moves is void",
        {"FRANCE": ["A PAR", "A BUR"]},
        {"FRANCE": ["A PAR - PIC", "A BUR S A PAR"]},
        {"A BUR S A PAR": "fails:void", "A PAR - PIC": "succeeds"}),
    Row("move-support-to-holder-void", "a move support that does not match the move ordered is void",
        {"FRANCE": ["A PAR", "A MAR"]},
        {"FRANCE": ["A PAR - PIC", "A MAR S A PAR - BUR"]},
        {"A MAR S A PAR - BUR": "fails:void", "A PAR - PIC": "succeeds"}),
    Row("convoyed-army-cuts-support", "an army arriving by convoy cuts the support of the unit it attacks",
        {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["A BEL", "A PIC"], "GERMANY": ["A BUR"]},
        {"ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL"], "FRANCE": ["A BEL S A PIC - BUR", "A PIC - BUR"],
         "GERMANY": ["A BUR H"]},
        {"A LON - BEL": "fails:bounce", "A BEL S A PIC - BUR": "fails:cut", "A PIC - BUR": "fails:bounce"},
        after={"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["A BEL", "A PIC"], "GERMANY": ["A BUR"]}),
]

CONVOYS = [
    Row("one-fleet-convoy", "an army crosses one sea by convoy",
        {"ENGLAND": ["A LON", "F NTH"]},
        {"ENGLAND": ["A LON - NWY", "F NTH C A LON - NWY"]},
        {"A LON - NWY": "succeeds", "F NTH C A LON - NWY": "succeeds"},
        after={"ENGLAND": ["A NWY", "F NTH"]}),
    Row("chain-of-three", "a convoy through three seas carries the army the whole way",
        {"ENGLAND": ["A LON", "F ENG", "F MAO", "F WES"]},
        {"ENGLAND": ["A LON - TUN", "F ENG C A LON - TUN", "F MAO C A LON - TUN", "F WES C A LON - TUN"]},
        {"A LON - TUN": "succeeds"},
        after={"ENGLAND": ["A TUN", "F ENG", "F MAO", "F WES"]}),
    Row("broken-chain", "a gap in the chain (no fleet ordered in the Mid-Atlantic) leaves the army home",
        {"ENGLAND": ["A LON", "F ENG", "F MAO", "F WES"]},
        {"ENGLAND": ["A LON - TUN", "F ENG C A LON - TUN", "F MAO H", "F WES C A LON - TUN"]},
        {"A LON - TUN": "fails:no_convoy"},
        after={"ENGLAND": ["A LON", "F ENG", "F MAO", "F WES"]}),
    Row("dislodged-fleet-disrupts", "dislodging the only convoying fleet makes the convoyed move fail",
        {"ENGLAND": ["A LON", "F NTH"], "GERMANY": ["F HEL", "F SKA"]},
        {"ENGLAND": ["A LON - NWY", "F NTH C A LON - NWY"], "GERMANY": ["F HEL - NTH", "F SKA S F HEL - NTH"]},
        {"A LON - NWY": "fails:no_convoy", "F NTH C A LON - NWY": "fails:dislodged", "F HEL - NTH": "succeeds"},
        after={"ENGLAND": ["A LON"], "GERMANY": ["F NTH", "F SKA"]}),
    Row("attacked-fleet-still-convoys", "a convoying fleet that is attacked but not dislodged still convoys",
        {"ENGLAND": ["A LON", "F NTH"], "GERMANY": ["F HEL"]},
        {"ENGLAND": ["A LON - NWY", "F NTH C A LON - NWY"], "GERMANY": ["F HEL - NTH"]},
        {"A LON - NWY": "succeeds", "F HEL - NTH": "fails:bounce"}),
    Row("convoyed-swap", "two neighbours swap when one goes by its own power's convoy: no head-to-head battle",
        {"FRANCE": ["A SPA", "F MAO"], "ENGLAND": ["A POR"]},
        {"FRANCE": ["A SPA - POR", "F MAO C A SPA - POR"], "ENGLAND": ["A POR - SPA"]},
        {"A SPA - POR": "succeeds", "A POR - SPA": "succeeds"},
        after={"FRANCE": ["A POR", "F MAO"], "ENGLAND": ["A SPA"]}),
    Row("swap-without-intent", "the same swap with a foreign fleet convoying is a land move: head to head, both stay",
        {"FRANCE": ["A SPA"], "ENGLAND": ["A POR", "F MAO"]},
        {"FRANCE": ["A SPA - POR"], "ENGLAND": ["A POR - SPA", "F MAO C A SPA - POR"]},
        {"A SPA - POR": "fails:bounce", "A POR - SPA": "fails:bounce"},
        after={"FRANCE": ["A SPA"], "ENGLAND": ["A POR", "F MAO"]}),
    Row("swap-without-intent-1971", "under the 1971 rules (DATC 4.A.3) any convoy is used when the other army "
        "moves the opposite way: the same orders swap the armies",
        {"FRANCE": ["A SPA"], "ENGLAND": ["A POR", "F MAO"]},
        {"FRANCE": ["A SPA - POR"], "ENGLAND": ["A POR - SPA", "F MAO C A SPA - POR"]},
        {"A SPA - POR": "succeeds", "A POR - SPA": "succeeds"},
        after={"FRANCE": ["A POR"], "ENGLAND": ["A SPA", "F MAO"]}, rules={"edition": "1971"}),
    Row("convoy-of-unordered-army", "a convoy for an army that does not move that way is void",
        {"ENGLAND": ["A LON", "F NTH"]},
        {"ENGLAND": ["A LON H", "F NTH C A LON - NWY"]},
        {"F NTH C A LON - NWY": "fails:void", "A LON H": "succeeds"}),
    Row("move-without-convoy-order", "a move over water with a fleet in place that was not ordered to convoy fails",
        {"ENGLAND": ["A LON", "F NTH"]},
        {"ENGLAND": ["A LON - NWY", "F NTH H"]},
        {"A LON - NWY": "fails:no_convoy"},
        after={"ENGLAND": ["A LON", "F NTH"]}),
]

PARADOXES = [
    Row("simple-paradox", "the army convoyed through a fleet under supported attack does not cut the support "
        "of that attack: a paradox, settled the same way by every rule; the fleet is dislodged (DATC 6.F.14 "
        "moved to the Mediterranean)",
        {"ITALY": ["F ROM", "F NAP"], "FRANCE": ["A TUN", "F TYS"]},
        {"ITALY": ["F ROM S F NAP - TYS", "F NAP - TYS"], "FRANCE": ["A TUN - ROM", "F TYS C A TUN - ROM"]},
        {"F ROM S F NAP - TYS": "succeeds", "F NAP - TYS": "succeeds", "A TUN - ROM": "fails:paradox",
         "F TYS C A TUN - ROM": "fails:paradox"},
        after={"ITALY": ["F ROM", "F TYS"], "FRANCE": ["A TUN"]}),
    Row("pandin-paradox", "with a second, equal attack on the convoying fleet the outcome is circular; by "
        "Szykman's rule the convoy fails, both attacks bounce (DATC 6.F.16 moved to the Mediterranean)",
        {"ITALY": ["F ROM", "F NAP"], "FRANCE": ["A TUN", "F TYS"], "TURKEY": ["F LYO", "F WES"]},
        {"ITALY": ["F ROM S F NAP - TYS", "F NAP - TYS"], "FRANCE": ["A TUN - ROM", "F TYS C A TUN - ROM"],
         "TURKEY": ["F LYO - TYS", "F WES S F LYO - TYS"]},
        {"A TUN - ROM": "fails:paradox", "F TYS C A TUN - ROM": "fails:paradox", "F NAP - TYS": "fails:bounce",
         "F LYO - TYS": "fails:bounce", "F ROM S F NAP - TYS": "succeeds"},
        after={"ITALY": ["F ROM", "F NAP"], "FRANCE": ["A TUN", "F TYS"], "TURKEY": ["F LYO", "F WES"]}),
]


@pytest.mark.parametrize("row", params(STRENGTHS))
def test_strengths(row: Row) -> None:
    check(row)


@pytest.mark.parametrize("row", params(HEAD_TO_HEAD))
def test_head_to_head(row: Row) -> None:
    check(row)


@pytest.mark.parametrize("row", params(SUPPORT_CUTS))
def test_support_cuts(row: Row) -> None:
    check(row)


@pytest.mark.parametrize("row", params(CONVOYS))
def test_convoys(row: Row) -> None:
    check(row)


@pytest.mark.parametrize("row", params(PARADOXES))
def test_paradoxes(row: Row) -> None:
    check(row)
