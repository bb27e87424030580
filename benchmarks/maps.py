"""Map rendering speed: a 34-unit standard position and its results, as SVG and as PNG.

    python benchmarks/maps.py [--runs 20] [--grid]

Targets (issue 12): SVG under 100 ms, PNG under 500 ms. Prints the median and the best
of `runs` for each, wall-clock and CPU time (the machine is shared: CPU time is what
the renderer itself costs). `--grid` uses the test suite's grid drawing instead of
variants/standard/map.json (for use before the real drawing exists).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import jsonapi  # noqa: E402
from app.maps import load_drawing, render_png, render_svg  # noqa: E402
from app.maps.png import natural_width  # noqa: E402
from app.variants import load_variant  # noqa: E402

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def position_with_34_units() -> dict[str, Any]:
    """34 units on 34 provinces (fleets at sea, armies ashore), powers in turn, every
    centre owned: a crowded board, as late in a game."""
    variant = load_variant("standard")
    provinces = sorted(p for p, info in variant.map.provinces.items() if not info.coasts and info.terrain.value != "impassable")
    units: dict[str, list[str]] = {}
    for i, province in enumerate(provinces[: 34 * 2 : 2]):
        kind = "F" if variant.map.provinces[province].terrain.value == "sea" else "A"
        units.setdefault(POWERS[i % 7], []).append(f"{kind} {province}")
    centres: dict[str, list[str]] = {}
    for i, centre in enumerate(sorted(p for p, info in variant.map.provinces.items() if info.centre)):
        centres.setdefault(POWERS[i % 7], []).append(centre)
    if sum(map(len, units.values())) != 34:
        raise SystemExit("the benchmark position must hold 34 units")
    return {"variant": "standard", "phase": "F1905M", "units": units, "centers": centres}


def measure(name: str, runs: int, job: Callable[[], object]) -> float:
    job()  # warm caches (drawing, base layer, fonts on disk)
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        job()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    median = statistics.median(walls) * 1000
    print(f"  {name:<28} median {median:7.1f} ms   best {min(walls) * 1000:7.1f} ms   "
          f"CPU median {statistics.median(cpus) * 1000:7.1f} ms")
    return median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--grid", action="store_true", help="the tests' grid drawing, not the real one")
    args = parser.parse_args()
    drawing = None
    if args.grid:
        from tests.maps.test_render_grid import grid_drawing

        drawing = grid_drawing("standard")
    else:
        load_drawing("standard")
    position = position_with_34_units()
    orders = {p: [f"{u} H" for u in us] for p, us in position["units"].items()}
    result = jsonapi.adjudicate_request({**position, "orders": orders})
    print(f"Map rendering, standard map, 34 units ({'grid' if args.grid else 'map.json'} drawing), {args.runs} runs:")
    svg_position = measure("SVG, position", args.runs, lambda: render_svg("standard", position, drawing=drawing))
    measure("SVG, results (34 orders)", args.runs,
            lambda: render_svg("standard", position, orders_result=result, drawing=drawing))
    svg = render_svg("standard", position, orders_result=result, drawing=drawing)
    png = measure(f"PNG from SVG ({natural_width(svg)} px)", args.runs, lambda: render_png(svg))
    print(f"targets: SVG < 100 ms ({'met' if svg_position < 100 else 'MISSED'}), "
          f"PNG < 500 ms ({'met' if png < 500 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
