"""The parts of a map that change from phase to phase, painted straight onto a picture.

The map's SVG (`render.py`) stays the one description of every picture. A results mail's PNG is
drawn from it in two halves (`publish.py`): the terrain and the names, the same for every map of a
variant, once by resvg; and what changes (centres, units, orders, the legend) by this painter,
which reads the small part of SVG those layers are written in (`path` with `M`/`L`/`H`/`V`/`Z`,
`circle`, `polygon`, `rect`, `line`, `text` and `g`, with the presentation attributes the
renderer sets) and paints it. Anything else raises `Unpaintable`: the caller then draws the whole
SVG with resvg instead.

It paints in one of two ways. Given a palette (the published PNG), straight in the palette's
indices with Pillow (`canvas.IndexedCanvas`), without anti-aliasing: every mark is a flat colour
outlined in ink, and a palette has no room for the blends of anti-aliased edges, which would snap
to one side anyway; the type is FreeType's black-and-white rendering (`glyphs.py`), or for type on
white (the legend, `smooth_type`) anti-aliased in the palette's ink, its blend over white and
white. Without one, anti-aliased in RGB with aggdraw, as resvg draws.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any
from xml.etree import ElementTree

import aggdraw
from PIL import Image

from .canvas import IndexedCanvas
from .glyphs import CENTRAL, Fonts, font_set, glyphs, smooth_masks

__all__ = ["Fonts", "Painter", "Unpaintable", "font_set"]  # Fonts and font_set: glyphs.py's

Point = tuple[float, float]

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH_TOKEN = re.compile(r"[MLHVZmlhvz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_INHERITED = ("fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap",
              "stroke-linejoin", "font-size", "font-weight", "font-style", "text-anchor", "dominant-baseline",
              "opacity")
_IGNORED = frozenset({"class", "id", "font-family", "fill-rule"})
_GEOMETRY = frozenset({"x", "y", "cx", "cy", "r", "rx", "d", "points", "width", "height", "x1", "y1", "x2", "y2"})


class Unpaintable(ValueError):
    """The SVG uses something this painter does not draw."""


@lru_cache(maxsize=256)
def _colour(value: str | None) -> tuple[int, int, int] | None:
    if value is None or value == "none":
        return None
    if len(value) == 7 and value[0] == "#":
        return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)
    if value == "black":
        return 0, 0, 0
    if value == "white":
        return 255, 255, 255
    raise Unpaintable(f"colour {value!r}")


@cache
def _pen(colour: tuple[int, int, int], width: float, opacity: int) -> Any:
    return aggdraw.Pen(colour, width, opacity)


@cache
def _brush(colour: tuple[int, int, int], opacity: int) -> Any:
    return aggdraw.Brush(colour, opacity)


@lru_cache(maxsize=1024)
def _index(palette: tuple[tuple[int, int, int], ...], colour: tuple[int, int, int]) -> int:
    """The index in `palette` of `colour`, or of the colour nearest it."""
    return min(range(len(palette)), key=lambda i: sum((a - b) ** 2 for a, b in zip(palette[i], colour, strict=True)))


@lru_cache(maxsize=512)
def _subpaths_of(d: str) -> tuple[tuple[tuple[Point, ...], bool], ...]:
    """`_subpaths`, kept: an order's line is stroked twice (in ink, then in its colour over it)."""
    return tuple((tuple(points), closed) for points, closed in _subpaths(d))


def _numbers(text: str) -> list[float]:
    return [float(n) for n in _NUMBER.findall(text)]


def _subpaths(d: str) -> list[tuple[list[Point], bool]]:
    """The path data as polylines (points, closed); `Unpaintable` for curves and arcs."""
    out: list[tuple[list[Point], bool]] = []
    points: list[Point] = []
    x = y = 0.0
    tokens = _PATH_TOKEN.findall(d)
    if "".join(tokens).replace(" ", "") != re.sub(r"[\s,]+", "", d):
        raise Unpaintable(f"path data {d[:40]!r}")
    i, command = 0, ""
    while i < len(tokens):
        token = tokens[i]
        if token.isalpha():
            command, i = token, i + 1
            if command in "Zz":
                if points:
                    out.append((points, True))
                    x, y = points[0]
                points = []
                continue
        if command in "Mm":
            if points:
                out.append((points, False))
            dx, dy = float(tokens[i]), float(tokens[i + 1])
            x, y = (x + dx, y + dy) if command == "m" else (dx, dy)
            points, i = [(x, y)], i + 2
            command = "l" if command == "m" else "L"  # further pairs are lines
        elif command in "Ll":
            dx, dy = float(tokens[i]), float(tokens[i + 1])
            x, y = (x + dx, y + dy) if command == "l" else (dx, dy)
            points.append((x, y))
            i += 2
        elif command in "Hh":
            x = x + float(tokens[i]) if command == "h" else float(tokens[i])
            points.append((x, y))
            i += 1
        elif command in "Vv":
            y = y + float(tokens[i]) if command == "v" else float(tokens[i])
            points.append((x, y))
            i += 1
        else:
            raise Unpaintable(f"path data {d[:40]!r}")
    if points:
        out.append((points, False))
    return out


def _dashes(points: Sequence[Point], pattern: Sequence[float]) -> list[list[Point]]:
    """The visible pieces of a polyline stroked with dash `pattern` (starting with a dash)."""
    if not pattern or sum(pattern) <= 0:
        return [list(points)]
    if len(points) == 2 and len(pattern) % 2 == 0:  # most lines: one segment, the dashes in a row
        return _segment_dashes(points[0], points[1], pattern)
    out = []
    index, left, on = 0, pattern[0], True
    piece: list[Point] = [points[0]]
    for a, b in zip(points, points[1:]):
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        done = 0.0
        while length - done > left:
            done += left
            t = done / length
            at = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if on:
                piece.append(at)
                out.append(piece)
            piece = [at]
            index = (index + 1) % len(pattern)
            left, on = pattern[index], not on
        left -= length - done
        if on:
            piece.append(b)
    if on and len(piece) > 1:
        out.append(piece)
    return out


def _segment_dashes(a: Point, b: Point, pattern: Sequence[float]) -> list[list[Point]]:
    """`_dashes` of the segment a-b, for a pattern of (dash, gap) pairs."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length <= 0:
        return []
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    starts, at, period = [], 0.0, sum(pattern)
    offsets = []
    for i in range(0, len(pattern), 2):
        offsets.append((at, at + pattern[i]))
        at += pattern[i] + pattern[i + 1]
    base = 0.0
    while base < length:
        for begin, end in offsets:
            if base + begin >= length:
                break
            starts.append((base + begin, min(base + end, length)))
        base += period
    x, y = a
    return [[(x + ux * s, y + uy * s), (x + ux * e, y + uy * e)] for s, e in starts]


def _ring(cx: float, cy: float, r: float, steps: int) -> list[Point]:
    """A circle as a closed polyline, starting at 3 o'clock and turning as SVG does."""
    return [(cx + r * math.cos(2 * math.pi * k / steps), cy + r * math.sin(2 * math.pi * k / steps))
            for k in range(steps + 1)]


class Painter:
    """Paints SVG fragments onto a picture `size` pixels big, the SVG's user units scaled by
    `scale`: RGB, anti-aliased; or, given a `palette`, its indices (one byte a pixel)."""

    def __init__(self, size: tuple[int, int], scale: float, fonts: Fonts, background: Any,
                 origin: tuple[int, int] = (0, 0), palette: tuple[tuple[int, int, int], ...] | None = None) -> None:
        """`origin`: the picture's pixel at this painter's top left (a part of a larger picture);
        `background`: the picture's bytes (RGB, or the palette's indices), or with a palette the P
        image to paint on."""
        self.size, self.scale, self.fonts, self.palette = size, scale, fonts, palette
        self.origin = origin
        self.draw: Any
        if palette:  # straight in the palette's indices, with Pillow (canvas.py)
            if origin != (0, 0):
                raise ValueError("an indexed picture is painted whole")
            self.draw = IndexedCanvas(background if isinstance(background, Image.Image) else
                                      Image.frombytes("P", size, background))
        else:
            self.draw = aggdraw.Draw("RGB", size)
            self.draw.frombytes(background)
            if origin != (0, 0):
                self.draw.settransform((-origin[0], -origin[1]))
        self._smooth = False
        self._brushes: dict[tuple[str | None, ...], Any] = {}
        self._strokes: dict[tuple[str | None, ...], tuple[Any, float, list[float]]] = {}
        self._texts: list[tuple[Any, int, int, Any]] = []  # RGB: (mask, left, top, colour), laid last
        self._dash_cache: dict[tuple[tuple[Point, ...], tuple[float, ...]], tuple[list[list[Point]], Any]] = {}
        self._shapes = {"circle": self._circle, "path": self._path, "polygon": self._polygon, "rect": self._rect,
                        "line": self._line, "text": self._text}

    def image(self) -> Any:
        """The picture painted, its type laid over: a PIL image, RGB, or P (without its palette)
        given a palette."""
        self.draw.flush()
        picture = self.draw.image if self.palette is not None else Image.frombytes("RGB", self.size, self.draw.tobytes())
        for mask, x, y, paint in self._texts:
            picture.paste(paint, (x, y, x + mask.width, y + mask.height), mask)
        return picture

    def paint(self, fragment: str, smooth_type: bool = False) -> None:
        """`smooth_type`: with a palette, type on white (a legend) anti-aliased, in the palette's
        blend of its ink over white where the palette has one."""
        self._smooth = smooth_type
        try:
            root = ElementTree.fromstring(f"<g>{fragment}</g>")
        except ElementTree.ParseError as error:
            raise Unpaintable(f"not SVG: {error}") from None
        self._group(root, {})

    # -- elements -------------------------------------------------------------------------

    def _group(self, group: ElementTree.Element, inherited: dict[str, str]) -> None:
        shapes = self._shapes
        for element in group:
            tag = element.tag
            if tag == "title":
                continue
            style = self._style(element, inherited)
            if tag == "g":
                self._group(element, style)
            elif tag in shapes:
                shapes[tag](element, style)
            else:
                raise Unpaintable(f"<{tag}>")

    @staticmethod
    def _style(element: ElementTree.Element, inherited: dict[str, str]) -> dict[str, str]:
        style = inherited
        for name, value in element.attrib.items():
            if name in _INHERITED:
                if style is inherited:
                    style = dict(inherited)
                style[name] = value
            elif name not in _IGNORED and name not in _GEOMETRY:
                raise Unpaintable(f"attribute {name}")  # paint-order (a halo), a pattern, a transform...
        return style

    def _circle(self, element: ElementTree.Element, style: dict[str, str]) -> None:
        s = self.scale
        cx, cy, r = (float(element.get(k) or 0) * s for k in ("cx", "cy", "r"))
        brush = self._brush(style)
        pen, width, dash = self._stroke(style)
        if dash:
            if brush is not None:
                self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), None, brush)
            steps = max(24, int(r * 2))
            self._stroke_lines([(_ring(cx, cy, r, steps), False)], style, pen, width, dash)
        else:
            self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), pen, brush)

    def _path(self, element: ElementTree.Element, style: dict[str, str]) -> None:
        s = self.scale
        subpaths = [([(x * s, y * s) for x, y in points], closed) for points, closed in _subpaths_of(element.get("d", ""))]
        brush = self._brush(style, default="#000000")
        if brush is not None:
            for points, _ in subpaths:
                if len(points) >= 3:
                    self.draw.polygon([c for p in points for c in p], None, brush)
        pen, width, dash = self._stroke(style)
        if pen is not None:
            self._stroke_lines(subpaths, style, pen, width, dash)

    def _polygon(self, element: ElementTree.Element, style: dict[str, str]) -> None:
        s = self.scale
        numbers = _numbers(element.get("points", ""))
        points = [(numbers[i] * s, numbers[i + 1] * s) for i in range(0, len(numbers) - 1, 2)]
        brush = self._brush(style, default="#000000")
        if brush is not None and len(points) >= 3:
            self.draw.polygon([c for p in points for c in p], None, brush)
        pen, width, dash = self._stroke(style)
        if pen is not None:
            self._stroke_lines([(points, True)], style, pen, width, dash)

    def _rect(self, element: ElementTree.Element, style: dict[str, str]) -> None:
        s = self.scale
        x, y, w, h = (float(element.get(k) or 0) * s for k in ("x", "y", "width", "height"))
        rx = float(element.get("rx") or 0) * s
        brush = self._brush(style, default="#000000")
        pen, width, dash = self._stroke(style)
        if dash:
            raise Unpaintable("a dashed rectangle")
        if rx > 0:
            self.draw.rounded_rectangle((x, y, x + w, y + h), rx, pen, brush)
        else:
            self.draw.rectangle((x, y, x + w, y + h), pen, brush)

    def _line(self, element: ElementTree.Element, style: dict[str, str]) -> None:
        s = self.scale
        x1, y1, x2, y2 = (float(element.get(k) or 0) * s for k in ("x1", "y1", "x2", "y2"))
        pen, width, dash = self._stroke(style)
        if pen is not None:
            self._stroke_lines([([(x1, y1), (x2, y2)], False)], style, pen, width, dash)

    def _text(self, element: ElementTree.Element, style: dict[str, str]) -> None:
        """Type from FreeType's masks (`_glyphs`): aggdraw draws it neither in black and white nor
        quickly. In RGB it is laid over the picture at the end (`image`): in a legend no shape
        covers type."""
        if "stroke" in style and style["stroke"] != "none":
            raise Unpaintable("outlined text")
        words = element.text or ""
        ink = self._ink(style.get("fill", "#000000"), 1.0)
        if not words.strip() or ink is None:
            return
        s = self.scale
        size = float(style.get("font-size", "16")) * s
        bold = style.get("font-weight") == "bold"
        file = self.fonts.bold if bold else self.fonts.oblique if style.get("font-style") == "italic" else \
            self.fonts.regular
        x, y = float(element.get("x") or 0) * s, float(element.get("y") or 0) * s
        anchor = style.get("text-anchor", "start")
        baseline = y + CENTRAL * size if style.get("dominant-baseline") == "central" else y
        half = self._half_ink(ink[0][0]) if self.palette is not None and self._smooth else None
        mask, (dx, dy), width = glyphs(words, file, size, self.palette is not None and half is None)
        left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
        x0, y0 = round(left) + dx - self.origin[0], round(baseline) + dy - self.origin[1]
        box = (x0, y0, x0 + mask.width, y0 + mask.height)
        if self.palette is None:
            self._texts.append((mask, x0, y0, ink[0]))
        elif half is None:  # on the picture itself: in its place among the shapes
            self.draw.image.paste(ink[0][0], box, mask)
        else:  # anti-aliased over white, in the palette: the edge half-way, the rest in ink
            edge, core = smooth_masks(words, file, size)
            self.draw.image.paste(half, box, edge)
            self.draw.image.paste(ink[0][0], box, core)

    def _half_ink(self, index: int) -> int | None:
        """The palette's index of the colour half-way between that of `index` and white, if the
        palette has it (a blend of type over white, `publish._palette`)."""
        assert self.palette is not None
        colour = self.palette[index]
        half = tuple((c + 256) // 2 for c in colour)
        found = _index(self.palette, half)  # type: ignore[arg-type]
        return found if max(abs(a - b) for a, b in zip(self.palette[found], half, strict=True)) <= 4 else None

    # -- strokes and fills -----------------------------------------------------------------

    def _ink(self, value: str | None, opacity: float) -> tuple[tuple[int, int, int], int] | None:
        """A paint's (colour, opacity): with a palette, its index as a grey, opaque (none if it is
        more than half transparent)."""
        colour = _colour(value)
        if colour is None:
            return None
        if self.palette is None:
            return colour, round(255 * opacity)
        if opacity < 0.5:
            return None
        index = _index(self.palette, colour)
        return (index, index, index), 255

    def _make_brush(self, ink: tuple[tuple[int, int, int], int] | None) -> Any:
        """aggdraw's brush, or the palette index (`IndexedCanvas`)."""
        if ink is None:
            return None
        return ink[0][0] if self.palette is not None else _brush(*ink)

    def _brush(self, style: dict[str, str], default: str | None = None) -> Any:
        key = (style.get("fill", default), style.get("fill-opacity"), style.get("opacity"))
        if key not in self._brushes:  # a map has a few dozen paints, and thousands of shapes
            self._brushes[key] = self._make_brush(self._ink(key[0], float(key[1] or 1) * float(key[2] or 1)))
        return self._brushes[key]

    def _stroke(self, style: dict[str, str]) -> tuple[Any, float, list[float]]:
        key = (style.get("stroke"), style.get("opacity"), style.get("stroke-width"), style.get("stroke-dasharray"))
        found = self._strokes.get(key)
        if found is None:
            ink = self._ink(key[0], float(key[1] or 1))
            if ink is None:
                found = None, 0.0, []
            else:
                width = float(key[2] or 1) * self.scale
                dash = [v * self.scale for v in _numbers(key[3] or "")]
                if self.palette is None:
                    pen = _pen(ink[0], width, ink[1])
                else:
                    pen = (ink[0][0], width)
                    if width < 1.5 and len(dash) % 2 == 0:  # Pillow's one-pixel line covers both ends: a pixel more
                        dash = [v for on, off in zip(dash[::2], dash[1::2], strict=True)
                                for v in (max(on - 1.0, 0.25), off + on - max(on - 1.0, 0.25))]
                found = pen, width, dash
            self._strokes[key] = found
        return found

    def _stroke_lines(self, lines: list[tuple[list[Point], bool]], style: dict[str, str], pen: Any, width: float,
                      dash: list[float]) -> None:
        """Each polyline (points, closed) stroked (butt ends and mitred corners, as aggdraw draws;
        round ends when the style asks, as discs of the stroke's width), dashed when `dash` says. A
        round corner needs no disc: it lies inside aggdraw's mitred one."""
        round_caps = style.get("stroke-linecap") == "round"
        ink = self._ink(style.get("stroke"), float(style.get("opacity", "1"))) if round_caps else None
        disc = self._make_brush(ink)
        half = width / 2
        for line, closed in lines:
            if closed and not dash:  # a closed outline: mitred at every corner, the first too
                if len(line) > 1:
                    self.draw.polygon([c for p in line for c in p], pen)
                continue
            pieces, path = self._dashed(line + line[:1] if closed else line, dash) if dash else ([line], None)
            if path is not None:  # the dashes of a line in one stroke
                self.draw.path(path, pen)
            elif pieces and len(pieces[0]) > 1:
                self.draw.line([c for p in pieces[0] for c in p], pen)
            if disc is not None:
                for piece in pieces:
                    for x, y in (piece[0], piece[-1]):
                        self.draw.ellipse((x - half, y - half, x + half, y + half), None, disc)

    def _dashed(self, line: list[Point], dash: list[float]) -> tuple[list[list[Point]], Any]:
        """The dashes of `line` and, when there are several, the path of them all: kept for the
        painter's life, as an order's line is stroked twice (in ink, then in its colour over it)."""
        key = (tuple(line), tuple(dash))
        found = self._dash_cache.get(key)
        if found is None:
            pieces = [p for p in _dashes(line, dash) if len(p) > 1]
            path: Any = None
            if len(pieces) > 1 and self.palette is not None:
                # IndexedCanvas.path's: whole pixels in Pillow's coordinates (round(c - 0.5), on the picture)
                path = [[int(c) for p in piece for c in p] for piece in pieces]
            elif len(pieces) > 1:
                path = aggdraw.Path()
                for piece in pieces:
                    path.moveto(*piece[0])
                    for x, y in piece[1:]:
                        path.lineto(x, y)
            found = self._dash_cache[key] = (pieces, path)
        return found
