"""`judge dod3 initiative|end-roll|victory|round`: the rules computations as JSON filters.

Each command reads one JSON object on stdin (or, with --jsonl, one object per
line) and writes one JSON object per input on stdout. Bad input gives
{"error": "..."} for that input and exit code 1. See docs/dod3.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from .exact import parse_number, round_rule, to_json_number
from .initiative import DEFAULT_BID_MODIFIERS, MoveDown, apply_move_downs, compute_initiative, move_down_order
from .political import end_of_political_affairs
from .powers import INITIAL_TRACK, grouping_preset
from .victory import victory_tally

__all__ = ["register", "initiative_command", "end_roll_command", "victory_command", "round_command"]


def _mapping(data: Any, what: str = "input") -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ValueError(f"{what} must be a JSON object")
    return data


def _bids(raw: Any) -> Any:
    if raw is None:
        return {}
    if isinstance(raw, list):
        bids: dict[str, Any] = {}
        for item in raw:
            item = _mapping(item, "each bid")
            if "power" not in item:
                raise ValueError("each bid needs a 'power'")
            if item["power"] in bids:
                raise ValueError(f"two bids for {item['power']}")
            bids[item["power"]] = {k: v for k, v in item.items() if k != "power"}
        return bids
    return _mapping(raw, "bids")


def initiative_command(data: Mapping[str, Any]) -> dict[str, Any]:
    data = _mapping(data)
    previous = data.get("previous_track", INITIAL_TRACK)
    result = compute_initiative(
        previous,
        _bids(data.get("bids")),
        modified_pe=_mapping(data.get("modified_pe") or {}, "modified_pe"),
        modifiers=data.get("modifiers", DEFAULT_BID_MODIFIERS),
        pools=None if data.get("pools") is None else _mapping(data["pools"], "pools"),
        absent=data.get("absent") or (),
    )
    before = list(result.track)
    order = list(move_down_order(result, data["democrats"]) if "democrats" in data else move_down_order(result))
    moves = data.get("move_downs")
    if isinstance(moves, list):
        moves = [MoveDown.from_dict(_mapping(item, "each move-down")) for item in moves]
    elif moves is not None:
        moves = _mapping(moves, "move_downs")
    if moves:
        if "democrats" in data:
            result = apply_move_downs(result, moves, data["democrats"])
        else:
            result = apply_move_downs(result, moves)
    out = result.to_dict()
    out["track_before_move_downs"] = before
    out["move_down_order"] = order
    return out


def end_roll_command(data: Mapping[str, Any]) -> dict[str, Any]:
    data = _mapping(data)
    if "die" not in data and not data.get("last_option_of_last_bidder"):
        raise ValueError("'die' is required")
    previous = data.get("previous_options", data.get("options_played", 0))
    if isinstance(previous, list):
        previous = [str(item) for item in previous]
    roll = end_of_political_affairs(
        data.get("die"),
        previous,
        data.get("powers_at_war", 0),
        data.get("all_at_war", False),
        rule_8_6=bool(data.get("rule_8_6", False)),
        previous_mp0=data.get("previous_mp0", 0),
        last_option_of_last_bidder=bool(data.get("last_option_of_last_bidder", False)),
    ).to_dict()
    roll.pop("passed", None)  # only meaningful inside a political affairs step
    return roll


def victory_command(data: Mapping[str, Any]) -> dict[str, Any]:
    data = _mapping(data)
    players = data.get("players")
    if players is None and data.get("preset") is not None:
        groups = grouping_preset(str(data["preset"]), soviet_with=data.get("soviet_with"))
        players = {"+".join(group): group for group in groups}
    for key in ("needed", "ideology_needed", "ideologies", "players"):
        if data.get(key) is not None:
            _mapping(data[key], key)
    return victory_tally(
        _mapping(data.get("objectives", {}), "objectives"),
        needed=data.get("needed"),
        neutral=data.get("neutral", data.get("neutral_objectives", ())) or (),
        ideologies=data.get("ideologies"),
        ideology_needed=data.get("ideology_needed"),
        players=players,
    ).to_dict()


def round_command(data: Any) -> dict[str, Any]:
    if isinstance(data, Mapping):
        if "value" not in data:
            raise ValueError("'value' is required")
        value = data["value"]
    else:
        value = data
    number = parse_number(value, what="value")
    return {"value": to_json_number(number), "rounded": round_rule(number)}


def _run(args: argparse.Namespace, compute: Callable[[Any], dict[str, Any]]) -> int:
    text = sys.stdin.read()
    if args.jsonl:
        chunks = [line for line in text.splitlines() if line.strip()]
    else:
        chunks = [text]
    status = 0
    for chunk in chunks:
        try:
            data = json.loads(chunk, parse_float=Decimal)
            output = compute(data)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            message = str(error) if not isinstance(error, json.JSONDecodeError) else f"invalid JSON: {error}"
            if isinstance(error, KeyError):
                message = f"missing or unknown: {error}"
            output = {"error": message}
            status = 1
        sys.stdout.write(json.dumps(output, sort_keys=False) + "\n")
    return status


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("dod3", help="Days of Decision III rules computations (JSON in, JSON out)")
    commands = parser.add_subparsers(dest="dod3_command", required=True)
    specs = (
        ("initiative", initiative_command, "rule 6: final bids and the new initiative track"),
        ("end-roll", end_roll_command, "rule 8.6: the end-of-political-affairs roll"),
        ("victory", victory_command, "rule 4: the victory tally"),
        ("round", round_command, "rule 1.1: round a number"),
    )
    for name, compute, help_text in specs:
        sub = commands.add_parser(name, help=help_text, description=help_text + ". Reads JSON on stdin.")
        sub.add_argument("--jsonl", action="store_true", help="one JSON object per input line, one result per line")
        sub.set_defaults(handler=lambda args, compute=compute: _run(args, compute))
