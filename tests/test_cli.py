"""The `judge` command line of issue 2: `adjudicate --jsonl`, `variant show --json`, `variant list`.

Run as a subprocess, the way other tools use it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
JUDGE = [sys.executable, "-m", "app.cli"]


def judge(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*JUDGE, *args], check=False, input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120)


def adjudicate_lines(lines: list[str]) -> list[dict[str, Any]]:
    done = judge("adjudicate", "--jsonl", stdin="".join(line + "\n" for line in lines))
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert len(out) == len(lines), done.stdout + done.stderr
    return [json.loads(line) for line in out]


# -- judge adjudicate --jsonl ---------------------------------------------------------

OPENING = {"id": "c1", "variant": "standard", "phase": "S1901M",
           "units": {"ENGLAND": ["F LON", "A YOR"], "FRANCE": ["A PAR", "F SPA/SC"]},
           "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
           "orders": {"ENGLAND": ["F LON - NTH", "A YOR - NWY VIA"], "FRANCE": ["A PAR - BUR"]}}
DISLODGE = {"id": "c2", "variant": "standard", "phase": "S1901M",
            "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR", "A MUN"]},
            "centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN", "BER"]},
            "orders": {"FRANCE": ["A Par-Bur", "A Mar S A Par-Bur"], "GERMANY": ["A Mun - Ruh"]}}
NO_UNITS = {"id": 3, "orders": {"FRANCE": ["Army Paris moves to Burgundy"]}}

# (line as sent, what the answer must show: None = a result, "error" = an error object)
STREAM: list[tuple[str, dict[str, object]]] = [
    (json.dumps(OPENING), {"id": "c1", "next_phase": "F1901M"}),
    ("{this is not json", {"id": None, "error": True}),
    (json.dumps(DISLODGE), {"id": "c2", "next_phase": "S1901R"}),
    (json.dumps({"id": "bad-variant", "variant": "nosuch"}), {"id": "bad-variant", "error": True}),
    ("[1, 2, 3]", {"error": True}),
    (json.dumps({"id": "bad-power", "orders": {"ATLANTIS": ["A PAR H"]}}), {"id": "bad-power", "error": True}),
    (json.dumps({"id": "bad-shape", "orders": ["A PAR H"]}), {"id": "bad-shape", "error": True}),
    ('"just a string"', {"error": True}),
    (json.dumps(NO_UNITS), {"id": 3, "next_phase": "F1901M"}),
    ("{\"id\": \"truncated\", \"orders\": {", {"error": True}),
    (json.dumps({"id": "last"}), {"id": "last", "next_phase": "F1901M"}),
]


def test_jsonl_answers_every_line_in_order() -> None:
    answers = adjudicate_lines([line for line, _want in STREAM])
    for (line, want), answer in zip(STREAM, answers):
        for key, value in want.items():
            if key == "error":
                assert isinstance(answer.get("error"), str) and answer["error"], (line, answer)
            else:
                assert answer.get(key) == value, (line, answer)
        if "error" not in want:
            assert "error" not in answer, (line, answer)
            assert {"id", "phase", "orders", "units", "dislodged", "centers", "next_phase"} <= set(answer)


def test_jsonl_a_line_that_is_not_utf8_gets_an_error_and_the_stream_goes_on() -> None:
    stdin = json.dumps(OPENING).encode() + b"\n" + b'{"id": "bad\xff\xfe"}\n' + json.dumps(DISLODGE).encode() + b"\n"
    done = subprocess.run([*JUDGE, "adjudicate", "--jsonl"], check=False, input=stdin, capture_output=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("id") for a in answers] == ["c1", None, "c2"]
    assert "not JSON" in answers[1]["error"]


RETREAT = {"variant": "standard", "phase": "F1901R", "units": {"FRANCE": ["A BUR", "A MAR"]},
           "dislodged": {"GERMANY": {"A BUR": {"attacker_from": "PAR", "retreats": ["RUH"]}}},
           "orders": {"GERMANY": ["A BUR - RUH"]}}


@pytest.mark.parametrize("change", [
    {"dislodged": {"GERMANY": {"A BUR": {"attacker_from": ["PAR"], "retreats": ["RUH"]}}}},
    {"dislodged": {"GERMANY": {"A BUR": {"attacker_from": {}, "retreats": ["RUH"]}}}},
    {"dislodged": {"GERMANY": {"A BUR": {"attacker_from": "PAR", "retreats": 5}}}},
    {"dislodged": {"GERMANY": {"A BUR": {"attacker_from": "PAR", "retreats": None}}}},
    {"dislodged": {"GERMANY": {"A BUR": {"attacker_from": "PAR", "retreats": ["RUH"], "af_moves": "x"}}}},
    {"retreated": 5},
    {"retreated": [5]},
    {"af_moves": ["FRANCE"]},
    {"af_moves": {"FRANCE": "many"}},
])
def test_jsonl_a_request_with_parts_of_the_wrong_type_gets_an_error_and_the_stream_goes_on(change: dict) -> None:
    """Each line is answered: a part of the wrong JSON type is named, never a crash that
    ends the stream (the compiled engine checks the types the Python one let through)."""
    before, bad, after = adjudicate_lines([json.dumps(OPENING), json.dumps({**RETREAT, "id": "bad", **change}),
                                           json.dumps(DISLODGE)])
    assert (before["id"], after["id"]) == ("c1", "c2") and "error" not in before and "error" not in after
    assert bad["id"] == "bad"
    assert "must" in bad["error"] or "is a string or null" in bad["error"]


def test_jsonl_territories_null_means_the_start() -> None:
    [answer] = adjudicate_lines([json.dumps({**OPENING, "territories": None})])
    assert "error" not in answer, answer


def test_jsonl_results() -> None:
    opening, dislodge, no_units = adjudicate_lines([json.dumps(OPENING), json.dumps(DISLODGE), json.dumps(NO_UNITS)])
    results = {(o["power"], o["order"]): o for o in opening["orders"]}
    assert results[("ENGLAND", "F LON - NTH")]["result"] == "succeeds"
    assert results[("FRANCE", "A PAR - BUR")]["result"] == "succeeds"
    assert sorted(opening["units"]["ENGLAND"]) == ["A YOR", "F NTH"]
    assert dislodge["dislodged"] == {"GERMANY": {"A BUR": {"attacker_from": "PAR", "retreats": ["BEL", "GAS", "MUN", "PIC"]}}}
    assert sorted(dislodge["units"]["FRANCE"]) == ["A BUR", "A MAR"]
    [paris] = [o for o in no_units["orders"] if o["order"] == "Army Paris moves to Burgundy"]
    assert paris["result"] == "succeeds"
    assert "A BUR" in no_units["units"]["FRANCE"]


@pytest.mark.parametrize("form", ["full", "short"])
def test_jsonl_phases_chain(form: str) -> None:
    """A movement result's dislodged object (or the short form) feeds the retreat phase."""
    [movement] = adjudicate_lines([json.dumps(DISLODGE)])
    dislodged = movement["dislodged"] if form == "full" else {"GERMANY": {"A BUR": "PAR"}}
    retreat = {"id": "r", "variant": "standard", "phase": movement["next_phase"], "units": movement["units"],
               "centers": movement["centers"], "dislodged": dislodged, "orders": {"GERMANY": ["A BUR - PIC"]}}
    [answer] = adjudicate_lines([json.dumps(retreat)])
    assert "error" not in answer, answer
    assert answer["phase"] == "S1901R" and answer["next_phase"] == "F1901M"
    assert sorted(answer["units"]["GERMANY"]) == ["A PIC", "A RUH"]
    [entry] = [o for o in answer["orders"] if o["order"] == "A BUR - PIC"]
    assert entry["result"] == "succeeds"


def test_single_request_without_jsonl() -> None:
    done = judge("adjudicate", stdin=json.dumps(OPENING))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["id"] == "c1"


# -- judge variant show standard --json -----------------------------------------------


@pytest.fixture(scope="module")
def standard() -> dict[str, Any]:
    done = judge("variant", "show", "standard", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_variant_provinces(standard: dict[str, Any]) -> None:
    provinces = standard["provinces"]
    playable = [p for p in provinces if p["type"] != "impassable"]
    impassable = [p["id"] for p in provinces if p["type"] == "impassable"]
    assert len(playable) == 75
    assert impassable == ["SWI"]
    assert len({p["id"] for p in provinces}) == len(provinces) == 76
    assert {p["type"] for p in playable} == {"land", "coast", "sea"}
    for province in provinces:
        assert {"id", "name", "aliases", "type", "supply_center", "home_of", "coasts", "army", "fleet"} <= set(province)


def test_variant_centres_and_powers(standard: dict[str, Any]) -> None:
    provinces = standard["provinces"]
    centres = {p["id"] for p in provinces if p["supply_center"]}
    assert len(centres) == 34
    powers = {p["id"]: p for p in standard["powers"]}
    assert sorted(powers) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    homes = {p["id"]: p["home_of"] for p in provinces if p["home_of"]}
    assert len(homes) == 22
    assert set(homes) <= centres
    for power, info in powers.items():
        assert sorted(info["home"]) == sorted(p for p, owner in homes.items() if owner == power)
    assert sorted(powers["RUSSIA"]["home"]) == ["MOS", "SEV", "STP", "WAR"]
    assert standard["victory_centres"] == 18
    assert standard["start_phase"] == "S1901M"


MULTI_COAST = [("SPA", ["SPA/NC", "SPA/SC"]), ("STP", ["STP/NC", "STP/SC"]), ("BUL", ["BUL/EC", "BUL/SC"])]


@pytest.mark.parametrize("province, coasts", MULTI_COAST, ids=[p for p, _c in MULTI_COAST])
def test_variant_coasts(standard: dict[str, Any], province: str, coasts: list[str]) -> None:
    by_id = {p["id"]: p for p in standard["provinces"]}
    assert sorted(c["id"] for c in by_id[province]["coasts"]) == coasts
    assert by_id[province]["fleet"] == []  # fleets move from its coasts
    assert sorted(p["id"] for p in standard["provinces"] if p["coasts"]) == ["BUL", "SPA", "STP"]


def test_variant_borders_are_symmetric(standard: dict[str, Any]) -> None:
    army: dict[str, set[str]] = {}
    fleet: dict[str, set[str]] = {}
    for province in standard["provinces"]:
        army[province["id"]] = set(province["army"])
        if province["fleet"]:
            fleet[province["id"]] = set(province["fleet"])
        for coast in province["coasts"]:
            fleet[coast["id"]] = set(coast["fleet"])
    one_sided = [f"army {a}-{b}" for a, bs in army.items() for b in bs if a not in army.get(b, set())]
    one_sided += [f"fleet {a}-{b}" for a, bs in fleet.items() for b in bs if a not in fleet.get(b, set())]
    assert one_sided == []
    assert army["SWI"] == set() and "SWI" not in fleet
    assert army["PAR"] == {"BRE", "BUR", "GAS", "PIC"}
    assert fleet["SPA/NC"] == {"GAS", "MAO", "POR"}
    assert fleet["MAO"] >= {"SPA/NC", "SPA/SC", "BRE", "NAF", "POR", "GAS"}
    assert sum(len(b) for b in army.values()) // 2 > 0


def test_variant_names_map_to_ids(standard: dict[str, Any]) -> None:
    by_id = {p["id"]: p for p in standard["provinces"]}
    assert by_id["BUR"]["name"] == "Burgundy"
    assert by_id["MAO"]["name"] == "Mid-Atlantic Ocean"
    assert by_id["LYO"]["name"] == "Gulf of Lyon"
    assert by_id["BUR"]["aliases"], "Burgundy has aliases"


def test_variant_show_text() -> None:
    done = judge("variant", "show", "standard")
    assert done.returncode == 0, done.stderr
    assert "34" in done.stdout and "AUSTRIA" in done.stdout


# -- judge variant list ------------------------------------------------------------------


def test_variant_list() -> None:
    done = judge("variant", "list")
    assert done.returncode == 0, done.stderr
    names = done.stdout.split()
    assert "standard" in names
    assert names == sorted(names)


def test_variant_show_unknown_fails_cleanly() -> None:
    done = judge("variant", "show", "nosuch", "--json")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr
    assert "nosuch" in done.stderr + done.stdout


# -- start-up: a command loads its own module only (issue 20, item 9) ----------------------

_LOADED = ("import sys, io; sys.stdin = io.TextIOWrapper(io.BytesIO(b'')); from app.cli import main; main({argv!r}); "
           "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in {{'app', 'sqlalchemy', 'fastapi', "
           "'asyncio', 'jinja2'}})))")


def _modules_loaded_by(*argv: str) -> set[str]:
    code = _LOADED.format(argv=list(argv))
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.strip().splitlines()[-1].split(","))


def test_adjudicate_jsonl_imports_the_engine_and_codec_only() -> None:
    loaded = _modules_loaded_by("adjudicate", "--jsonl")
    assert "app.jsonapi" in loaded and "app.db.codec" in loaded
    heavy = {m for m in loaded if m.split(".")[0] in {"sqlalchemy", "fastapi", "asyncio", "jinja2"}
             or m.startswith(("app.maps", "app.dod3", "app.services", "app.mail", "app.web", "app.server_cli",
                              "app.db.models", "app.db.session"))}
    assert not heavy, f"judge adjudicate --jsonl imported {sorted(heavy)}"


def test_the_command_table_is_what_the_modules_register() -> None:
    import argparse
    import importlib

    from app.cli import COMMANDS, build_parser

    for module, names in COMMANDS.items():
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(module).register(sub)
        assert tuple(sub.choices) == names, module
    assert set(build_parser().parse_args(["variant", "list"]).__dict__) >= {"command", "handler"}
    full = next(a.choices for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(full) == {name for names in COMMANDS.values() for name in names}


def test_an_unknown_command_gets_the_full_usage() -> None:
    done = judge("no-such-command")
    assert done.returncode == 2
    for name in ("adjudicate", "serve", "dashboard", "map", "dod3"):
        assert name in done.stderr
