"""`judge dod3 ...` round trips through `python -m app.cli`."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def judge(*args: str, stdin: str) -> tuple[int, str, str]:
    completed = subprocess.run(
        [sys.executable, "-m", "app.cli", "dod3", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    return completed.returncode, completed.stdout, completed.stderr


def test_initiative_rulebook_example():
    request = {
        "previous_track": ["Germany", "Italy", "Commonwealth", "France", "USSR", "Japan", "USA", "China"],
        "bids": [
            {"power": "IT", "points": 2},
            {"power": "FR", "points": 2},
            {"power": "RU", "points": 3},
            {"power": "CW", "points": 1},
            {"power": "JA", "points": 6, "options": 2},
        ],
        "modified_pe": {"IT": 3, "RU": 2, "CW": 2, "FR": 2, "GE": 4, "JA": 1, "US": 1, "CH": 0},
    }
    code, out, err = judge("initiative", stdin=json.dumps(request))
    assert code == 0, err
    result = json.loads(out)
    assert result["track"] == ["IT", "RU", "CW", "FR", "JA", "GE", "US", "CH"]
    assert result["last_card"] == 5 and result["last_card_power"] == "JA"
    bids = {entry["power"]: entry["final_bid"] for entry in result["entries"]}
    assert bids == {"IT": 5, "RU": 5, "CW": 4, "FR": 4, "JA": 3.5, "GE": 4, "US": 1, "CH": 0}
    assert result["move_down_order"] == ["CH", "US", "FR", "CW"]


def test_initiative_with_move_downs_and_exact_fractions():
    request = {
        # GE 1+4 = 5, IT 1+3 = 4, FR 2+2 = 4 (tie: same PE, IT was ahead), CW (4+3)/3 = 7/3
        "bids": {"CW": {"points": 4, "options": 3}, "IT": 1, "GE": 1, "FR": 2},
        "modified_pe": {"GE": 0, "IT": 0, "CW": 0, "FR": 0, "RU": 0, "JA": 0, "US": 0, "CH": 0},
        "move_downs": {"FR": {"below": "CW"}},
    }
    code, out, err = judge("initiative", stdin=json.dumps(request))
    assert code == 0, err
    result = json.loads(out)
    assert result["entries"][result["track"].index("CW")]["final_bid"] == "7/3"
    assert result["track_before_move_downs"][:4] == ["GE", "IT", "FR", "CW"]
    assert result["track"][:4] == ["GE", "IT", "CW", "FR"]
    assert result["last_card"] == 4 and result["last_card_power"] == "FR"
    request["move_downs"] = {"CW": {"to": 5}}
    code, out, _ = judge("initiative", stdin=json.dumps(request))
    assert code == 1 and "did not bid" in json.loads(out)["error"]


def test_end_roll_rulebook_example_and_8_6():
    lines = [
        {"die": 6, "previous_options": 3, "powers_at_war": 5, "all_at_war": False},
        {"die": 3, "previous_options": ["IPO 1", "MP 0(f)"], "powers_at_war": 0, "all_at_war": False, "rule_8_6": True},
        {"die": 3, "previous_options": 2, "previous_mp0": 1, "powers_at_war": 0, "all_at_war": False},
        {"previous_options": 4, "last_option_of_last_bidder": True},
    ]
    code, out, err = judge("end-roll", "--jsonl", stdin="\n".join(json.dumps(x) for x in lines) + "\n")
    assert code == 0, err
    results = [json.loads(line) for line in out.splitlines()]
    assert [(r["modified"], r["ends"]) for r in results] == [(4, False), (2, False), (1, True), (None, True)]
    assert results[3]["automatic"] is True


def test_victory_1945_example():
    request = {
        "objectives": {"FR": 7, "CW": 20, "US": 18, "CH": 2, "RU": 15, "GE": 0, "IT": 0, "JA": 0},
        "neutral": [{"name": "Sao Paulo", "distances": {"CW": 6, "US": 6}}],
        "needed": {"GE": 20, "JA": 12},
        "players": {"France/Commonwealth": ["FR", "CW"], "USA/China": ["US", "CH"], "Soviet": ["RU"],
                    "Axis": ["GE", "IT", "JA"]},
    }
    code, out, err = judge("victory", stdin=json.dumps(request))
    assert code == 0, err
    result = json.loads(out)
    assert result["net"] == {"Democrats": -2, "Fascists": -40, "Communists": -2}
    assert result["winning_ideologies"] == ["Democrats", "Communists"]
    assert result["winning_player"] == "USA/China"
    rounded = {p["player"]: p["objectives_rounded"] for p in result["players"]}
    assert rounded == {"France/Commonwealth": 28, "USA/China": 21, "Soviet": 15}


def test_victory_with_preset_and_missing_needed_error():
    code, out, _ = judge("victory", stdin=json.dumps({"objectives": {"GE": 3}, "preset": "5"}))
    assert code == 1 and "GM must enter" in json.loads(out)["error"]


def test_round_jsonl_and_errors():
    stdin = "3.25\n{\"value\": 4.5}\n{\"value\": -3.5}\n{\"value\": \"13/3\"}\n{\"value\": \"x\"}\nnot json\n"
    code, out, _ = judge("round", "--jsonl", stdin=stdin)
    assert code == 1
    results = [json.loads(line) for line in out.splitlines()]
    assert [r.get("rounded") for r in results] == [3, 5, -4, 4, None, None]
    assert results[3]["value"] == "13/3"
    assert "error" in results[4] and "invalid JSON" in results[5]["error"]


def test_round_single_object():
    code, out, _ = judge("round", stdin='{"value": 0.5}')
    assert code == 0 and json.loads(out) == {"value": 0.5, "rounded": 1}
