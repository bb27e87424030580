"""`judge map`: the JSON of `judge adjudicate` on stdin, a map out (SVG, or PNG with --png)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from app import jsonapi
from app.variants import load_variant

from .drawing import DrawingError
from .png import MIN_WIDTH, MissingFont, render_png
from .render import render_svg


class MapRequestError(ValueError):
    """The input cannot be drawn; the message says why."""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    command = subparsers.add_parser(
        "map",
        help="draw a position or a phase's results (JSON of `judge adjudicate` on stdin) as SVG or PNG",
        description="Reads one JSON object on stdin: a position (without `units`: the variant's start), "
        "a position with `orders` (adjudicated, then drawn with its results), or a result of "
        "`judge adjudicate`. Writes SVG to stdout, or PNG to FILE with --png.",
    )
    command.add_argument("--png", metavar="FILE", help="write a PNG to FILE ('-' for stdout) instead of SVG")
    command.add_argument("--width", type=int, help=f"PNG width in pixels, at least {MIN_WIDTH} (default: the map's own width)")
    command.add_argument("--title", help="the game's name, shown in the legend")
    command.set_defaults(handler=_map)


def map_svg(data: Any, title: str | None = None) -> str:
    """The SVG for one `judge map` input; `MapRequestError` when it cannot be drawn."""
    if not isinstance(data, dict):
        raise MapRequestError("the input must be one JSON object")
    name = str(data.get("variant") or jsonapi.DEFAULT_VARIANT)
    try:
        variant = load_variant(name)
    except LookupError as error:
        raise MapRequestError(str(error.args[0] if error.args else error)) from None
    orders = data.get("orders")
    try:
        if isinstance(orders, list):  # a result of `judge adjudicate`
            if "phase" not in data:
                raise MapRequestError("a result needs its \"phase\"")
            return render_svg(name, None, orders_result=data, title=title)
        if orders is not None:  # a request: adjudicate it, then draw its results
            result = jsonapi.adjudicate_request(data)
            if "error" in result:
                raise MapRequestError(str(result["error"]))
            return render_svg(name, data, orders_result=result, title=title)
        _check_position(data, variant)
        return render_svg(name, data, title=title)
    except DrawingError as error:
        raise MapRequestError(str(error)) from None


def _check_position(data: dict[str, Any], variant: Any) -> None:
    for key in ("units", "centers", "centres"):
        value = data.get(key)
        if value is not None and not (isinstance(value, dict) and all(isinstance(v, list) for v in value.values())):
            raise MapRequestError(f'"{key}" must map each power to a list of strings')
    if data.get("dislodged") is not None and not isinstance(data["dislodged"], dict):
        raise MapRequestError('"dislodged" must map each power to its dislodged units')
    try:
        jsonapi.state_from_json(data, variant)
    except jsonapi.RequestError as error:
        raise MapRequestError(str(error)) from None


def _map(args: argparse.Namespace) -> int:
    try:
        data = json.load(sys.stdin)
    except json.JSONDecodeError as error:
        print(f"judge map: not JSON: {error}", file=sys.stderr)
        return 2
    try:
        svg = map_svg(data, args.title)
    except MapRequestError as error:
        print(f"judge map: {error}", file=sys.stderr)
        return 2
    if not args.png:
        sys.stdout.write(svg + "\n")
        return 0
    if args.width is not None and args.width < MIN_WIDTH:
        print("judge map: --width must be at least 1000", file=sys.stderr)
        return 2
    try:
        png = render_png(svg, args.width)
    except MissingFont as error:
        print(f"judge map: {error}", file=sys.stderr)
        return 1
    if args.png == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(png)
    else:
        with open(args.png, "wb") as handle:
            handle.write(png)
    return 0
