"""The PNG a phase's mail carries (`phase_map_png`): in milliseconds, and small.

What never changes for a drawing (the terrain, the names) is drawn once by resvg, at the width
published (1,000 px: the map's sizes are chosen to read at it, and the zine shows it so), and kept
for the process (`StaticMap`). Each phase then paints only what changes (centres, units, orders,
the legend: `paint.Painter`, from the same SVG as `render_svg`), puts the names back over the
orders, and writes the picture in indexed colour with the drawing's palette: the terrain's colours
and the powers', fixed once, so every map of a variant maps its pixels the same way. A picture
the painter cannot draw is drawn whole by resvg instead (and logged).
"""

from __future__ import annotations

import io
import logging
import struct
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import deflate
import resvg_py
from PIL import Image

from app.variants import load_variant

from .board import build_board
from .drawing import Drawing, load_drawing
from .paint import Fonts, Painter, Unpaintable, extent, font_set
from .png import font_files
from .render import MapLayers, layers_of_board
from .style import BACKGROUND_LAND, INK, LAND, SEA, WATER, power_styles
from .terrain import base_layer, label_layer

__all__ = ["PUBLISH_WIDTH", "phase_map_png", "picture_png", "raster"]

log = logging.getLogger(__name__)

PUBLISH_WIDTH = 1000  # pixels: `style.pixel` sizes every mark to read at this width
COLOURS = 32  # the palette: the terrain's and the powers' colours exactly, and enough blends for smooth edges
LEVEL = 6  # libdeflate's: 9 packs a few per cent better at three times the time


@dataclass(frozen=True, eq=False)  # one a drawing: compared and hashed by identity
class StaticMap:
    """A drawing at the published width: its terrain (RGB bytes, `map_height` rows), its names
    (RGBA, drawn over the orders) and the palette every map of it is written in."""

    width: int
    map_height: int
    scale: float
    terrain: bytes
    labels: Any  # PIL.Image.Image, RGBA
    palette: Any  # PIL.Image.Image, P
    fonts: Fonts


def _svg(drawing: Drawing, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{drawing.width:.0f}" height="{drawing.height:.0f}" '
            f'viewBox="0 0 {drawing.width:.0f} {drawing.height:.0f}">{body}</svg>')


def raster(svg: str, scale: float, background: str | None = "#FFFFFF") -> Any:
    """An SVG drawn whole by resvg, `scale` pixels a unit in both directions (the picture's size
    rounded to whole pixels, as the published map's), as a PIL image."""
    data = resvg_py.svg_to_bytes(svg_string=svg, zoom=scale, skip_system_fonts=True, font_files=list(font_files()),
                                 font_family="DejaVu Sans", sans_serif_family="DejaVu Sans", background=background)
    return Image.open(io.BytesIO(bytes(data)))


@cache
def static_map(variant_name: str, drawing: Drawing) -> StaticMap:
    """What every map of `drawing` shares, drawn once (a few hundred milliseconds) per process."""
    scale = PUBLISH_WIDTH / drawing.width
    terrain = raster(_svg(drawing, base_layer(drawing, variant_name)), scale).convert("RGB")
    labels = raster(_svg(drawing, label_layer(drawing, variant_name)), scale, None).convert("RGBA")
    fonts = font_set(font_files())
    named = terrain.copy()
    named.paste(labels, (0, 0), labels)
    return StaticMap(terrain.width, terrain.height, scale, terrain.tobytes(), labels,
                     _palette(named, variant_name, scale, fonts), fonts)


def _swatches(variant_name: str, scale: float, fonts: Fonts) -> Any:
    """A strip showing every power's colour as the maps use it: units and arrows outlined in ink on
    land, sea and the legend's white, with letters and text; the palette is chosen from it too."""
    cell = 60.0
    powers = list(power_styles(load_variant(variant_name)).values())
    width, height = cell * len(powers), cell * 3
    parts = [f'<rect x="0" y="{row * cell}" width="{width}" height="{cell}" fill="{fill}"/>'
             for row, fill in enumerate((LAND, SEA, "#FFFFFF"))]
    for i, power in enumerate(powers):
        for row in range(3):
            x, y = i * cell + 30, row * cell + 30
            parts.append(f'<circle cx="{x - 14}" cy="{y}" r="10" fill="{power.colour}" stroke="{INK}" stroke-width="1.5"/>'
                         f'<text x="{x - 14}" y="{y}" font-size="13" font-weight="bold" fill="{power.ink}" '
                         f'text-anchor="middle" dominant-baseline="central">{power.letter}</text>'
                         f'<path d="M{x} {y - 20}L{x + 20} {y + 20}" fill="none" stroke="{INK}" stroke-width="6"/>'
                         f'<path d="M{x} {y - 20}L{x + 20} {y + 20}" fill="none" stroke="{power.colour}" stroke-width="4"/>'
                         f'<text x="{x}" y="{y + 22}" font-size="11" fill="{INK}">SC units</text>')
    painter = Painter((round(width * scale), round(height * scale)), scale, fonts,
                      b"\xff" * (3 * round(width * scale) * round(height * scale)))
    painter.paint("".join(parts))
    return Image.frombytes("RGB", painter.size, painter.pixels())


def _palette(named: Any, variant_name: str, scale: float, fonts: Fonts) -> Any:
    """`COLOURS` colours: the exact ones of the terrain and the powers, then those that best serve
    the anti-aliased edges of a map drawn over them (octree of the terrain and the swatches)."""
    swatch = _swatches(variant_name, scale, fonts)
    sample = Image.new("RGB", (max(named.width, swatch.width), named.height + swatch.height), "#FFFFFF")
    sample.paste(named, (0, 0))
    sample.paste(swatch, (0, named.height))
    exact = {_rgb(c) for c in (WATER, SEA, LAND, BACKGROUND_LAND, INK, "#FFFFFF", "#000000")}
    exact |= {_rgb(p.colour) for p in power_styles(load_variant(variant_name)).values()}
    octree = sample.quantize(colors=COLOURS - len(exact), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    found = octree.getpalette() or []
    colours = [tuple(found[i:i + 3]) for i in range(0, 3 * (COLOURS - len(exact)), 3)]
    chosen = list(dict.fromkeys([*sorted(exact), *colours]))
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for c in chosen for v in c])
    return palette


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@lru_cache(maxsize=16)
def _background(static: StaticMap, height: int) -> bytes:
    """The terrain over a white legend `height` pixels high in all (a legend has a few heights)."""
    return static.terrain + b"\xff" * (3 * static.width * (height - static.map_height))


def picture_png(layers: MapLayers, drawing: Drawing, variant_name: str) -> bytes:
    """The PNG of one map's `layers` at the published width, in the drawing's palette."""
    static = static_map(variant_name, drawing)
    width, height = static.width, round(layers.height * static.scale)
    painter = Painter((width, height), static.scale, static.fonts, _background(static, height))
    painter.paint(layers.under_labels)
    painter.paint(layers.legend)
    picture = Image.frombytes("RGB", (width, height), painter.pixels())
    picture.paste(static.labels, (0, 0), static.labels)  # the names over the orders (issue 22.14)
    box = extent(layers.over_labels, static.scale)  # dislodged units, over the names: painted where they are
    if box is not None:
        box = (max(0, box[0]), max(0, box[1]), min(width, box[2]), min(height, box[3]))
        part = picture.crop(box)
        over = Painter(part.size, static.scale, static.fonts, part.tobytes(), origin=(box[0], box[1]))
        over.paint(layers.over_labels)
        picture.paste(Image.frombytes("RGB", part.size, over.pixels()), box[:2])
    return _png(picture.quantize(palette=static.palette, dither=Image.Dither.NONE))


def _png(indexed: Any) -> bytes:
    """An indexed-colour PNG of `indexed` (a P image): its palette as far as it is used, the rows
    unfiltered, packed by libdeflate (as small as zlib's level 6, twice as fast)."""
    width, height = indexed.size
    pixels = indexed.tobytes()
    used = int(indexed.getextrema()[1]) + 1
    palette = bytes((indexed.getpalette() or [])[:3 * used]).ljust(3 * used, b"\0")
    rows = b"".join(b"\0" + pixels[y * width:(y + 1) * width] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", deflate.zlib_compress(rows, LEVEL)), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes | bytearray) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def phase_map_png(
    variant: str, state_before: dict[str, Any], result: dict[str, Any] | None, *, title: str | None = None
) -> bytes:
    """The PNG to publish for one phase: with `result`, the orders and outcomes of the phase that
    `state_before` (the stored state, as given to the adjudicator) started; without, the position
    itself. Public information only (see `render_svg`): the same picture as `render_svg` draws."""
    drawing = load_drawing(variant)
    board = build_board(load_variant(variant), state_before, result)
    layers = layers_of_board(board, drawing, variant, title or board.variant.title)
    try:
        return picture_png(layers, drawing, variant)
    except Unpaintable as error:
        log.warning("map of %s drawn whole by resvg: the painter cannot draw %s", variant, error)
        whole = raster(layers.svg(), PUBLISH_WIDTH / layers.width).convert("RGB")
        return _png(whole.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))
