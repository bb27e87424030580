"""The benchmark peer: MILA's `diplomacy` package, run in its own virtualenv.

Usage: python mila_peer.py CORPUS.jsonl -> prints one JSON line of timings.
Resolution only: `game.process()` after units and orders are set.
End to end: a game built from the request, orders set (parsed), processed, state to JSON.

    python mila_peer.py --whole CORPUS.jsonl -> one JSON state a line on stdout

The whole process, as `judge adjudicate --jsonl` is timed: the interpreter, the import, each line
read, adjudicated and written.
"""

import json
import sys
import time

from diplomacy import Game


def build(request):
    game = Game(map_name="standard")
    game.clear_units()
    for power, units in request["units"].items():
        game.set_units(power, units, reset=True)
    for power, orders in request["orders"].items():
        game.set_orders(power, orders)
    return game


def main(path):
    with open(path) as handle:
        lines = handle.read().splitlines()
    requests = [json.loads(line) for line in lines]
    games = [build(r) for r in requests]
    orders = sum(len(o) for r in requests for o in r["orders"].values())
    start = time.perf_counter()
    for game in games:
        game.process()
    resolution = time.perf_counter() - start
    start = time.perf_counter()
    for line in lines:
        game = build(json.loads(line))
        game.process()
        json.dumps(game.get_state())
    end_to_end = time.perf_counter() - start
    print(json.dumps({"cases": len(requests), "orders": orders, "resolution_s": resolution, "end_to_end_s": end_to_end}))


def whole(path):
    out = sys.stdout
    with open(path) as handle:
        for line in handle:
            game = build(json.loads(line))
            game.process()
            out.write(json.dumps(game.get_state()) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "--whole":
        whole(sys.argv[2])
    else:
        main(sys.argv[1])
