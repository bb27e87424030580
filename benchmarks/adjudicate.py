"""Adjudication speed: our engine and, side by side in the same run, MILA's `diplomacy`.

    python benchmarks/adjudicate.py [--cases 2000] [--peer .venv-bench/bin/python] [--repeat 3]

Prints which engine ran (compiled by `make`, or the Python sources: app/engine/native.py) and,
for each engine, cases per second and microseconds per order for
  resolution only  (typed orders in, results out; for MILA: game.process())
  end to end       (order text in, JSON out)
  whole process    (`judge adjudicate --jsonl` over the corpus file, interpreter start and imports
                    included, against MILA's process reading the same file: the ratio of their times)
The peer runs in its own virtualenv (`make bench` creates it); it is a yardstick,
not a dependency, and not the truth (it follows DATC v2.4).
On a shared machine the load changes from one second to the next: both engines run
`--repeat` times, taking turns, and each figure is the best of its runs (every run
does all the work, the end to end one starting cold).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import jsonapi  # noqa: E402
from app.engine import native  # noqa: E402
from app.engine.adjudicate import adjudicate, read_orders  # noqa: E402
from app.engine.geo import province_of  # noqa: E402
from app.engine.orders import Hold  # noqa: E402
from app.engine.resolve import resolve_movement  # noqa: E402
from app.variants import load_variant  # noqa: E402
from benchmarks.positions import corpus  # noqa: E402


def _report(name: str, cases: int, orders: int, seconds: float) -> None:
    print(f"  {name:<34} {cases / seconds:>9,.0f} cases/s  {seconds / orders * 1e6:>7.1f} µs/order")


def ours(requests: list[dict]) -> dict[str, float]:
    variant = load_variant("standard")
    prepared = []
    typed = []
    for request in requests:
        state = jsonapi.state_from_json(request, variant)
        entries = read_orders(variant, state, request["orders"])
        orders = {province_of(e.order.unit.location): e.order for e in entries if e.order is not None}
        for province, (_power, unit) in state.units.items():
            orders.setdefault(province, Hold(unit))
        prepared.append((state.units, orders))
        typed.append((state, {p: [e.order for e in entries if e.power == p and e.order is not None] for p in request["orders"]}))
    start = time.perf_counter()
    for units, orders in prepared:
        resolve_movement(variant.map, variant.rules, units, orders)
    core = time.perf_counter() - start
    start = time.perf_counter()
    for state, orders in typed:
        adjudicate(variant, state, orders)
    phase = time.perf_counter() - start
    lines = [json.dumps(r).encode() for r in requests]
    variant.map.forget()  # end to end starts cold: no order text read before
    start = time.perf_counter()
    for line in lines:  # what `judge adjudicate --jsonl` does with each line it reads
        jsonapi.adjudicate_line(line)
    end_to_end = time.perf_counter() - start
    return {"resolution_s": core, "phase_s": phase, "end_to_end_s": end_to_end}


def _keep_best(best: dict[str, float], run: dict[str, float]) -> None:
    for key, seconds in run.items():
        best[key] = min(seconds, best.get(key, seconds))


def _peer_run(peer: Path, corpus_file: str) -> dict[str, float]:
    output = subprocess.run([str(peer), str(ROOT / "benchmarks" / "mila_peer.py"), corpus_file],
                            capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(output.stdout.strip().splitlines()[-1])
    return result


def _whole(command: list[str], corpus_file: str) -> float:
    """Wall seconds of one process reading the corpus file (stdout thrown away)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(corpus_file, "rb") as stdin:
        start = time.perf_counter()
        subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, check=True, env=env)
        return time.perf_counter() - start


def _judge_command() -> list[str]:
    judge = Path(sys.executable).parent / "judge"
    return [str(judge), "adjudicate", "--jsonl"] if judge.exists() else [sys.executable, "-m", "app.cli", "adjudicate",
                                                                          "--jsonl"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--peer", default=str(ROOT / ".venv-bench" / "bin" / "python"))
    parser.add_argument("--repeat", type=int, default=3, help="runs of each engine, taking turns; best kept")
    args = parser.parse_args()
    requests = [p.request(f"b{i}") for i, p in enumerate(corpus(args.cases))]
    orders = sum(len(o) for r in requests for o in r["orders"].values())
    print(f"corpus: {len(requests)} positions, {orders} orders ({orders / len(requests):.1f} per position), "
          f"best of {max(1, args.repeat)} runs each")
    print("engine: " + ("compiled (mypyc, `make` builds it)" if native.in_use() else
                        f"Python sources (not compiled: {native.stale_reason() or native.CHOICE + '=python'})"))
    peer = Path(args.peer)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(json.dumps(r) for r in requests))
    mine: dict[str, float] = {}
    theirs: dict[str, float] = {}
    for _ in range(max(1, args.repeat)):
        _keep_best(mine, ours(requests))
        _keep_best(mine, {"whole_s": _whole(_judge_command(), handle.name)})
        if peer.exists():
            _keep_best(theirs, _peer_run(peer, handle.name))
            _keep_best(theirs, {"whole_s": _whole([str(peer), str(ROOT / "benchmarks" / "mila_peer.py"), "--whole",
                                                   handle.name], handle.name)})
    print("postal-judge:")
    _report("resolution only (resolver)", len(requests), orders, mine["resolution_s"])
    _report("phase with typed orders", len(requests), orders, mine["phase_s"])
    _report("end to end (text in, JSON out)", len(requests), orders, mine["end_to_end_s"])
    _report("whole process (judge adjudicate --jsonl)", len(requests), orders, mine["whole_s"])
    if not theirs:
        print(f"peer: not run ({peer} missing; `make bench` creates it)")
        return
    print("MILA diplomacy (peer):")
    _report("resolution only (game.process)", len(requests), orders, theirs["resolution_s"])
    _report("end to end (text in, JSON out)", len(requests), orders, theirs["end_to_end_s"])
    _report("whole process (python mila_peer.py)", len(requests), orders, theirs["whole_s"])
    print("speed-up:")
    print(f"  resolution  {theirs['resolution_s'] / mine['resolution_s']:.1f}x (resolver), "
          f"{theirs['resolution_s'] / mine['phase_s']:.1f}x (whole phase from typed orders)")
    print(f"  end to end  {theirs['end_to_end_s'] / mine['end_to_end_s']:.1f}x")
    print(f"  whole process  {theirs['whole_s'] / mine['whole_s']:.1f}x "
          f"({mine['whole_s']:.2f} s against {theirs['whole_s']:.2f} s)")


if __name__ == "__main__":
    main()
