"""The board of a published map painted straight in its palette's indices, with Pillow.

`paint.Painter` paints through a handful of aggdraw's drawing calls. On the board of a published
map (`publish.py`), where every mark is a flat colour outlined in ink and the palette has no room
for the blends of anti-aliased edges (they would snap to one side anyway), it paints through this
canvas instead: the same calls, made with Pillow's `ImageDraw` on the indexed picture itself,
without anti-aliasing. Pillow draws these shapes several times faster than aggdraw, and nothing
is converted afterwards. A pen is `(index, width)`, a brush an index; strokes are centred on the
outline, as in SVG (Pillow draws an outline inside its box: the box is grown by half the width);
coordinates are SVG's (a pixel's centre at +0.5; Pillow's at the whole number).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import ImageDraw

__all__ = ["IndexedCanvas"]

Pen = tuple[int, float]
Box = tuple[float, float, float, float]


def _width(width: float) -> int:
    return max(1, int(width + 0.5))


def _half(width: float) -> float:
    """How far a stroke's sides are put from its middle line, for it to come out `width` pixels
    wide: Pillow fills the pixels on a polygon's edges too, a pixel more across a line."""
    return (width - 0.85) / 2


@lru_cache(maxsize=4096)
def _offset(dx: int, dy: int, half: float) -> tuple[int, int]:
    """The whole-pixel step from a stroke's middle line to its side, the line running (dx, dy):
    the one nearest `half` away from the line among those about the exact offset, slid along the
    line by up to a pixel (Pillow puts a polygon's corners on whole pixels: rounding the offset
    alone would make 45-degree strokes of 3 and 5 pixels alike)."""
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    best = (math.inf, 0, 0)
    for slide in (0.0, 0.5, -0.5, 1.0, -1.0):
        mx, my = round(-uy * half + ux * slide), round(ux * half + uy * slide)
        error = abs(-uy * mx + ux * my - half)
        if error < best[0] - 1e-9:
            best = (error, mx, my)
    return best[1], best[2]


def _pixels(box: Box) -> tuple[int, int, int, int]:
    """The first and last pixels whose centres lie in `box` (Pillow's ellipse takes whole pixels,
    both ends included, and would cut the fractions off)."""
    x0, y0 = math.ceil(box[0] - 0.5), math.ceil(box[1] - 0.5)
    return x0, y0, max(x0, math.floor(box[2] - 0.5)), max(y0, math.floor(box[3] - 0.5))


class IndexedCanvas:
    """aggdraw's calls that `Painter` makes, on `image` (mode P or L)."""

    def __init__(self, image: Any) -> None:
        self.image = image
        self._draw = ImageDraw.Draw(image)
        self._core = self._draw.draw  # Pillow's drawing calls, without ImageDraw's checks: a map makes a thousand

    def flush(self) -> None:
        """Nothing to do: Pillow draws on the picture itself."""

    def ellipse(self, box: Box, pen: Pen | None, brush: int | None) -> None:
        half = pen[1] / 2 if pen is not None else 0.0
        outer = _pixels((box[0] - half, box[1] - half, box[2] + half, box[3] + half))
        if brush is not None:
            self._core.draw_ellipse(outer if pen is not None and pen[0] == brush else _pixels(box), brush, 1)
        if pen is not None and pen[0] != brush:
            self._core.draw_ellipse(outer, pen[0], 0, _width(pen[1]))

    def rectangle(self, box: Box, pen: Pen | None, brush: int | None) -> None:
        self.rounded_rectangle(box, 0.0, pen, brush)

    def rounded_rectangle(self, box: Box, radius: float, pen: Pen | None, brush: int | None) -> None:
        half = pen[1] / 2 if pen is not None else 0.0
        outer = (box[0] - 0.5 - half, box[1] - 0.5 - half, box[2] - 0.5 + half, box[3] - 0.5 + half)
        outline, width = (pen[0], _width(pen[1])) if pen is not None else (None, 1)
        if radius > 0:
            self._draw.rounded_rectangle(outer, radius + half, fill=brush, outline=outline, width=width)
        else:
            self._draw.rectangle(outer, fill=brush, outline=outline, width=width)

    def polygon(self, coords: Sequence[float], pen: Pen | None, brush: int | None = None) -> None:
        points = [c - 0.5 for c in coords]
        if brush is not None:
            self._core.draw_polygon(points, brush, 1)
        if pen is not None:
            self._line([*points, points[0], points[1]], pen)

    def line(self, coords: Sequence[float], pen: Pen) -> None:
        self._line([c - 0.5 for c in coords], pen)

    def path(self, pieces: Sequence[list[int]], pen: Pen) -> None:
        """Each piece (a dash: x, y, x, y..., whole pixels in Pillow's coordinates already) stroked
        as `_line` does; a dash of one segment quicker (a dashed line has a hundred dashes)."""
        index, width = pen
        if width < 1.5:
            for piece in pieces:
                self._core.draw_lines(piece, index, 1)
            return
        polygon, half = self._core.draw_polygon, _half(width)
        for piece in pieces:
            if len(piece) != 4:
                self._line(piece, pen)
                continue
            x0, y0, x1, y1 = piece
            if x0 != x1 or y0 != y1:
                nx, ny = _offset(x1 - x0, y1 - y0, half)
                polygon((x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny), index, 1)

    def _line(self, points: Sequence[float], pen: Pen) -> None:
        """A polyline stroked `pen[1]` wide: one pixel wide by Pillow's own line; wider, each segment
        as a quadrilateral of our own (Pillow's wide lines come out as wide at 45 degrees for 3
        pixels as for 5, and a white edging under an ink line would vanish), on whole pixels
        (`_offset`) so that both its sides are alike, and a disc at each turn."""
        index, width = pen
        if width < 1.5:
            self._core.draw_lines(points, index, 1)
            return
        polygon, ellipse, half = self._core.draw_polygon, self._core.draw_ellipse, _half(width)
        for i in range(0, len(points) - 3, 2):
            x0, y0, x1, y1 = round(points[i]), round(points[i + 1]), round(points[i + 2]), round(points[i + 3])
            if x0 == x1 and y0 == y1:
                continue
            nx, ny = _offset(x1 - x0, y1 - y0, half)
            polygon((x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny), index, 1)
            if i and width > 2:
                r = half - 0.5
                ellipse((round(x0 - r), round(y0 - r), round(x0 + r), round(y0 + r)), index, 1)
