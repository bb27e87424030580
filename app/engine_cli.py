"""`judge adjudicate`, `judge variant`, `judge demo`: the engine from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import jsonapi
from .variants import available

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def register(subparsers: argparse._SubParsersAction) -> None:
    adjudicate = subparsers.add_parser("adjudicate", help="adjudicate phases given as JSON on stdin")
    adjudicate.add_argument("--jsonl", action="store_true", help="one JSON object per line in, one per line out")
    adjudicate.set_defaults(handler=_adjudicate)

    variant = subparsers.add_parser("variant", help="variants the engine knows")
    variant_sub = variant.add_subparsers(dest="variant_command", required=True)
    show = variant_sub.add_parser("show", help="a variant's map as the engine sees it")
    show.add_argument("name")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.set_defaults(handler=_variant_show)
    listing = variant_sub.add_parser("list", help="the known variants")
    listing.set_defaults(handler=lambda args: print("\n".join(available())) or 0)

    demo = subparsers.add_parser("demo", help="adjudicate the example game and print the results")
    demo.set_defaults(handler=_demo)


def _adjudicate(args: argparse.Namespace) -> int:
    if not args.jsonl:
        request = json.load(sys.stdin)
        json.dump(_safe(request), sys.stdout)
        sys.stdout.write("\n")
        return 0
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        out.write(jsonapi.adjudicate_line(line) + b"\n")
        out.flush()
    return 0


def _safe(request: object) -> dict:
    if not isinstance(request, dict):
        return {"id": None, "error": "a request must be a JSON object"}
    return jsonapi.adjudicate_request(request)


def _variant_show(args: argparse.Namespace) -> int:
    try:
        data = jsonapi.variant_map(args.name)
    except LookupError as error:
        print(f"judge: {error.args[0] if error.args else error}", file=sys.stderr)
        return 2
    if args.json:
        json.dump(data, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    print(f"{data['title']} ({data['name']}): {len(data['provinces'])} provinces, "
          f"{sum(p['supply_center'] for p in data['provinces'])} supply centres, "
          f"{data['victory_centres']} to win, starts {data['start_phase']}")
    for power in data["powers"]:
        print(f"  {power['id']:<10} {power['name']:<12} home: {' '.join(power['home'])}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    """Play the example opening and print each result: the engine at a glance."""
    state = jsonapi.initial_state(jsonapi.DEFAULT_VARIANT)
    for line in (EXAMPLES / "standard-1901.jsonl").read_text().splitlines():
        orders = json.loads(line)
        result = jsonapi.adjudicate_request({**state, "orders": orders})
        print(f"== {jsonapi.describe_phase(result['phase'])}")
        for entry in result["orders"]:
            print(f"  {entry['power']:<8} {entry['normalized'] or entry['order']:<22} {entry['result']:<9} {entry['explanation']}")
        state = jsonapi.next_state(result)
    print(f"== next: {jsonapi.describe_phase(state['phase'])}; centres: "
          + ", ".join(f"{p} {len(c)}" for p, c in state["centers"].items()))
    return 0
