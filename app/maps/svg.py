"""SVG text helpers: every string that reaches the SVG goes through `esc` or `attrs`."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from xml.sax.saxutils import escape, quoteattr

from .drawing import Point, Polygon


def esc(text: object) -> str:
    """Text content, with `&`, `<`, `>` and quotes escaped."""
    return escape(str(text), {'"': "&quot;", "'": "&#39;"})


def num(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


_NEEDS_QUOTING = re.compile(r'[&<>"\n\r\t]')


@cache
def _attribute_name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _quoted(text: str) -> str:
    """`quoteattr`, quicker for the common value that needs no escaping (a map has thousands)."""
    return f'"{text}"' if _NEEDS_QUOTING.search(text) is None else quoteattr(text)


def attrs(**values: object) -> str:
    """` key="value"` pairs (None skipped; `class_` and `font_size` style names become
    `class` and `font-size`), every value quoted and escaped."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        if value.__class__ is float:  # the most common (a map has thousands): a number needs no quoting
            parts.append(f' {_attribute_name(key)}="{num(value)}"')  # type: ignore[arg-type]
        else:
            parts.append(f" {_attribute_name(key)}={_quoted(str(value))}")
    return "".join(parts)


def element(tag: str, content: str | None = None, /, **values: object) -> str:
    if content is None:
        return f"<{tag}{attrs(**values)}/>"
    return f"<{tag}{attrs(**values)}>{content}</{tag}>"


def text(x: float, y: float, content: object, **values: object) -> str:
    return element("text", esc(content), x=float(x), y=float(y), **values)


def title(content: object) -> str:
    return f"<title>{esc(content)}</title>"


def polygon_path(polygons: Iterable[Polygon]) -> str:
    """Path data for polygons with holes (fill-rule evenodd)."""
    parts = []
    for polygon in polygons:
        for ring in polygon:
            parts.append("M" + "L".join(f"{num(x)} {num(y)}" for x, y in ring) + "Z")
    return "".join(parts)


def line_path(points: Iterable[Point]) -> str:
    return "M" + "L".join(f"{num(x)} {num(y)}" for x, y in points)
