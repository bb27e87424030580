"""The PNG a phase's mail carries (`phase_map_png`): in milliseconds, and small.

What never changes for a drawing (the terrain, the names) is drawn once by resvg, at the width
published (1,000 px: the map's sizes are chosen to read at it, and the zine shows it so), and kept
for the process (`StaticMap`), with the palette every map of the drawing is written in: the
colours it is drawn in, exactly, and the blends of type over white, no more (`_palette`). The
terrain's areas and borders are crisp (terrain.py), its names smooth. Each phase then paints only
what changes (centres, units, orders, the legend: `paint.Painter`, from the same SVG as
`render_svg`) straight in the palette's indices over the terrain (`canvas.IndexedCanvas`, no
anti-aliasing: a palette has no room for the blends), lays the names back over the orders (a copy
of the pixels they cover), paints the dislodged units over them and writes the rows as they are
(an indexed PNG gains nothing from PNG's filters), packed by libdeflate. A picture the painter
cannot draw is drawn whole by resvg instead (and logged).
"""

from __future__ import annotations

import io
import logging
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import deflate
import resvg_py
from PIL import Image

from app.variants import load_variant

from . import style
from .board import build_board
from .drawing import Drawing, load_drawing
from .glyphs import Fonts, font_set
from .paint import Painter, Unpaintable
from .png import font_files
from .render import MapLayers, layers_of_board
from .terrain import CROSSING_COLOUR, base_layer, label_layer

__all__ = ["PUBLISH_WIDTH", "phase_map_png", "picture_png", "raster"]

log = logging.getLogger(__name__)

PUBLISH_WIDTH = 1000  # pixels: `style.pixel` sizes every mark to read at this width
COLOURS = 32  # a picture drawn whole by resvg (the painter could not): its palette, chosen for it
FREQUENT = 0.002  # a colour covering this part of the terrain is one of the palette's
NAME_TILE = 32  # pixels: the names are laid in boxes this high
LEVEL = 5  # libdeflate's, measured on the crowded maps: 6 costs 1.2 ms more for 4-8% fewer bytes, 7 five more


@dataclass(frozen=True, eq=False)  # one a drawing: compared and hashed by identity
class StaticMap:
    """A drawing at the published width: its terrain (`map_height` rows, in the palette's indices),
    its names (the parts of the named terrain that hold them, in the palette, each with the mask of
    the pixels they cover: laid over the orders) and the palette every map of it is written in."""

    width: int
    map_height: int
    scale: float
    indexed_terrain: bytes
    names: tuple[tuple[tuple[int, int], Any, Any], ...]  # (where, the named terrain there, P; its mask, 1)
    palette: Any  # PIL.Image.Image, P
    colours: tuple[tuple[int, int, int], ...]  # `palette`'s
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
    palette = _palette(terrain, variant_name)
    named = terrain.copy()
    named.paste(labels, (0, 0), labels)
    # A name's pixel is the name's where it is more than half opaque: its edge, half-way between
    # its white halo and what lies under it, snaps to one side in the palette anyway.
    mask = labels.getchannel("A").point(lambda alpha: 255 if alpha >= 128 else 0).convert("1")
    flat = palette.getpalette() or []
    colours = tuple((flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3))
    names = _name_parts(named.quantize(palette=palette, dither=Image.Dither.NONE), mask)
    return StaticMap(terrain.width, terrain.height, scale,
                     terrain.quantize(palette=palette, dither=Image.Dither.NONE).tobytes(), names, palette, colours,
                     font_set(font_files()))


def _name_parts(named: Any, mask: Any, tile: int = NAME_TILE) -> tuple[tuple[tuple[int, int], Any, Any], ...]:
    """The named terrain cut into the boxes that hold names (a tile high, as long as a row's run of
    tiles with a name's pixel): laid one by one, the names cost half as much as the whole picture."""
    parts = []
    for top in range(0, mask.height, tile):
        bottom, x = min(mask.height, top + tile), 0
        held = [mask.crop((left, top, min(mask.width, left + tile), bottom)).getbbox() is not None
                for left in range(0, mask.width, tile)]
        while x < len(held):
            if not held[x]:
                x += 1
                continue
            start = x
            while x < len(held) and held[x]:
                x += 1
            box = (start * tile, top, min(mask.width, x * tile), bottom)
            parts.append(((box[0], box[1]), named.crop(box), mask.crop(box)))
    return tuple(parts)


def _palette(terrain: Any, variant_name: str) -> Any:
    """The palette every map of a drawing is written in: the colours it is drawn in, exactly (the
    terrain's, the powers', the inks, and those the terrain covers a large part of the picture
    with, such as a translucent sea over water), and the half-way blend of each ink over white for
    the edges of type. No other blend: an anti-aliased edge snaps to its nearer side, which costs
    nothing in legibility (the marks are outlined in ink) and keeps the PNG small (each blend in
    use costs about a kilobyte a map)."""
    pixels = terrain.width * terrain.height
    frequent = [colour for count, colour in sorted(terrain.getcolors(pixels), reverse=True)
                if count >= pixels * FREQUENT]
    inks = (style.INK, style.SEA_INK, style.NEUTRAL_COLOUR, style.BORDER, *CROSSING_COLOUR.values())
    exact = [*map(_rgb, (style.WATER, style.SEA, style.LAND, style.BACKGROUND_LAND, style.IMPASSABLE,
                         style.IMPASSABLE_HATCH, "#FFFFFF", "#000000", *inks)),
             *(_rgb(p.colour) for p in style.power_styles(load_variant(variant_name)).values())]
    blends = [_mix(_rgb(ink), (255, 255, 255)) for ink in (style.INK, style.SEA_INK)]
    chosen: list[tuple[int, ...]] = []
    for colour in [*frequent, *exact, *blends]:
        # no twins: Pillow finds a pixel's colour through a table of 5-6-5 bits, twins would share it
        if all(sum((a - b) ** 2 for a, b in zip(colour, other, strict=True)) > 64 for other in chosen):
            chosen.append(colour)
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for c in chosen[:256] for v in c])
    return palette


def _mix(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple((x + y + 1) // 2 for x, y in zip(a, b, strict=True))


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@lru_cache(maxsize=16)
def _background(static: StaticMap, height: int) -> bytes:
    """The terrain over a white legend, `height` pixels high in all (a legend has a few heights),
    in the palette's indices."""
    white = static.colours.index((255, 255, 255))
    return static.indexed_terrain + bytes([white]) * (static.width * (height - static.map_height))


def picture_png(layers: MapLayers, drawing: Drawing, variant_name: str) -> bytes:
    """The PNG of one map's `layers` at the published width, painted straight in the drawing's
    palette over its terrain: what changes on the board; the names laid over it (a copy of the
    pixels they cover); the dislodged units over the names; the legend, its type anti-aliased."""
    static = static_map(variant_name, drawing)
    width, height = static.width, round(layers.height * static.scale)
    painter = Painter((width, height), static.scale, static.fonts, _background(static, height), palette=static.colours)
    painter.paint(layers.under_labels)
    picture = painter.image()
    for where, names, mask in static.names:  # the names over the orders (issue 22.14)
        picture.paste(names, where, mask)
    painter.paint(layers.over_labels)  # dislodged units, over the names
    painter.paint(layers.legend, smooth_type=True)
    rows = Image.new("P", (width + 1, height), 0)  # each row after its filter byte, 0: none
    rows.paste(picture, (1, 0))
    return _png(rows.tobytes(), width, height, static.colours)


def _png(rows: bytes, width: int, height: int, colours: Sequence[tuple[int, int, int]]) -> bytes:
    """An indexed-colour PNG of `rows` (each row a filter byte, 0: none, then its pixels' indices in
    `colours`): a palette's indices gain nothing from PNG's filters; packed by libdeflate at
    `LEVEL` (zlib takes twice as long for the same size)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    palette = bytes(v for colour in colours for v in colour)
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
        indexed = whole.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        flat = indexed.getpalette() or []
        rows = Image.new("P", (indexed.width + 1, indexed.height), 0)
        rows.paste(indexed, (1, 0))
        return _png(rows.tobytes(), indexed.width, indexed.height,
                    [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat) - 2, 3)])
