"""Issue 9.10: rule 11.3's "dislodged units first" means the units dislodged in this year's
Fall turn (read with rule 11.2), as the code does; the docs say so."""

from __future__ import annotations

from pathlib import Path

from app import jsonapi
from tests.variants._play import adjudicate, outcome

V = "smallworld"
UNITS = {"AFRICA": ["A SAH", "A ETH", "A LIB"], "ISLAM": ["A CON", "A ALG"]}
CENTRES = {"AFRICA": ["SAF", "ETH"], "ISLAM": ["ARA", "EGY", "PER", "CON", "NIG"]}
ATTACK = {"ISLAM": ["A CON - SAH", "A ALG S A CON - SAH"]}


def _play_to_spring(phase: str) -> dict:
    r = adjudicate(V, phase, UNITS, ATTACK, centers=CENTRES)
    assert outcome(r, "A CON - SAH") == "succeeds"
    while not r["next_phase"].startswith("S03"):
        r = jsonapi.adjudicate_request({**jsonapi.next_state(r, V), "orders": {}})
        assert "error" not in r, r
    return r


def test_a_fall_dislodgement_is_removed_first():
    r = _play_to_spring("F02M")  # retreats to Sudan with the Winter orders, then removed
    assert sorted(r["units"]["AFRICA"]) == ["A ETH", "A LIB"]


def test_a_spring_dislodgement_is_an_ordinary_unit_by_the_winter():
    r = _play_to_spring("S02M")  # retreated to Sudan in S02R; least impact removes Ethiopia
    assert sorted(r["units"]["AFRICA"]) == ["A LIB", "A SUD"]


def test_the_docs_say_which_dislodged_units_go_first():
    rules = (Path(__file__).resolve().parents[2] / "docs/rules.md").read_text()
    line = rules[rules.index('`removal_default = "least_impact"`'):]
    line = line[: line.index("\n- ")]
    assert "Fall turn" in line and "units dislodged this year first" not in line
