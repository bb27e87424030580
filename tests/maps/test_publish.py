"""The PNG a mail carries (issue 26.1): drawn from the same SVG as `render_svg`, the parts that never
change drawn once per drawing, only what changes painted each phase, written small (indexed colour,
1,000 px wide), and as legible as resvg's picture of the whole SVG."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from app import jsonapi
from app.maps import phase_map_png
from app.maps.board import build_board
from app.maps.drawing import load_drawing
from app.maps.render import render_svg
from app.variants import load_variant
from tests.maps.test_render_orders import AUTUMN, FERRY, RETREATS, STANDOFF, WINTER

WIDTH = 1000  # the published width (app/maps/publish.py PUBLISH_WIDTH)
CASES = {"movement": AUTUMN, "retreats": RETREATS, "standoff": STANDOFF, "adjustments": WINTER, "ferry": FERRY,
         "zeus5-start": {**jsonapi.initial_state("zeus5"), "orders": {"USA": ["BUILD A WAS", "BUILD F NYK"]}},
         "smallworld-start": {**jsonapi.initial_state("smallworld"), "orders": {}}}


def _case(name: str) -> tuple[str, dict, dict]:
    request = CASES[name]
    result = jsonapi.adjudicate_request(request)
    assert "error" not in result, result
    return request["variant"], {k: v for k, v in request.items() if k != "orders"}, result


def _png_header(data: bytes) -> tuple[int, int, int, int]:
    """(width, height, bit depth, colour type) of a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    return width, height, depth, colour


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_published_map_is_indexed_colour_at_the_width_maps_are_sized_for(name: str) -> None:
    variant, position, result = _case(name)
    png = phase_map_png(variant, position, result, title="demo")
    width, height, depth, colour = _png_header(png)
    assert width == WIDTH and height > 600
    assert (depth, colour) == (8, 3)  # a palette, not RGBA
    assert zlib.crc32(png[12:29]) == struct.unpack(">I", png[29:33])[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_published_map_shows_what_resvg_draws_of_the_same_svg(name: str) -> None:
    """Painted in two halves (the terrain once, what changes each phase), the picture is the SVG's:
    compared with resvg's picture of the whole SVG at the same scale, pixel for pixel on the map
    (anti-aliased edges and a palette of a few dozen colours apart), and as much ink in the legend
    (its type is hinted: a glyph may sit a pixel aside)."""
    from app.maps import publish

    variant, position, result = _case(name)
    published = Image.open(io.BytesIO(phase_map_png(variant, position, result, title="demo"))).convert("RGB")
    scale = WIDTH / load_drawing(variant).width
    whole = publish.raster(render_svg(variant, position, orders_result=result, title="demo"), scale).convert("RGB")
    assert published.size == whole.size
    top = round(load_drawing(variant).height * scale)
    board = ImageChops.difference(published.crop((0, 0, 1000, top)), whole.crop((0, 0, 1000, top)))
    assert sum(ImageStat.Stat(board).mean) / 3 < 2.0
    # No mark missing or misplaced: a unit or an arrow is a patch where most pixels differ; hinted
    # letters and anti-aliased edges differ here and there (at most a fifth of a 10 px square).
    strong = board.convert("L").point(lambda v: 255 if v > 96 else 0)
    squares = strong.resize((strong.width // 10, strong.height // 10), Image.Resampling.BOX).histogram()
    assert sum(squares[102:]) == 0, f"{sum(squares[102:])} squares of 10 px differ in most of their pixels"

    def ink(picture: Image.Image) -> int:
        legend = picture.crop((0, top + 2, 1000, picture.height)).convert("L")
        return legend.point(lambda v: 255 if v < 128 else 0).histogram()[255]

    assert 0.85 < ink(published) / ink(whole) < 1.2


def test_what_never_changes_is_drawn_once_per_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """resvg draws a variant's terrain and names once; every phase after that only paints."""
    import resvg_py

    calls: list[int] = []
    real = resvg_py.svg_to_bytes

    def counting(**kwargs: Any) -> bytes:
        calls.append(1)
        return real(**kwargs)

    from app.maps import publish

    publish.static_map.cache_clear()
    monkeypatch.setattr(resvg_py, "svg_to_bytes", counting)
    for name in ("movement", "retreats", "adjustments"):
        phase_map_png(*_case(name), title="demo")
    assert len(calls) == 2  # the terrain, the names: once for the three maps


def test_every_layer_that_changes_is_one_the_painter_draws() -> None:
    """No published map falls back to resvg: the painter draws all that the layers hold."""
    from app.maps import publish
    from app.maps.render import layers_of_board

    for name in CASES:
        variant, position, result = _case(name)
        board = build_board(load_variant(variant), position, result)
        drawing = load_drawing(variant)
        publish.picture_png(layers_of_board(board, drawing, variant, "demo"), drawing, variant)  # raises if not


def test_an_svg_the_painter_cannot_draw_is_drawn_whole_by_resvg(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.maps import publish
    from app.maps.paint import Unpaintable

    def refuse(*args: object) -> bytes:
        raise Unpaintable("<image>")

    monkeypatch.setattr(publish, "picture_png", refuse)
    variant, position, result = _case("movement")
    png = phase_map_png(variant, position, result, title="demo")
    assert _png_header(png)[0] == WIDTH and _png_header(png)[3] == 3


@pytest.mark.parametrize("fragment", ['<image href="x.png"/>', '<path d="M0 0C1 1 2 2 3 3"/>',
                                      '<text x="1" y="1" stroke="#FFFFFF" paint-order="stroke">A</text>',
                                      '<rect width="3" height="3" fill="url(#pattern)"/>'])
def test_the_painter_refuses_what_it_does_not_draw(fragment: str) -> None:
    from app.maps.paint import Painter, Unpaintable, font_set
    from app.maps.png import font_files

    painter = Painter((10, 10), 1.0, font_set(font_files()), b"\xff" * 300)
    with pytest.raises(Unpaintable):
        painter.paint(fragment)


@pytest.mark.parametrize("name", ["movement", "zeus5-start", "smallworld-start"])
def test_the_palette_is_the_drawings_colours_and_the_blends_of_type_only(name: str) -> None:
    """Few colours, each a colour the map is drawn in (every power's exactly) or the blend of an ink
    over white: an anti-aliased edge snaps to a side (each blend in use costs a kilobyte a map, and
    Pillow finds a pixel's colour through a table of 5-6-5 bits, so no two colours are twins)."""
    from app.maps.style import power_styles

    variant, position, result = _case(name)
    picture = Image.open(io.BytesIO(phase_map_png(variant, position, result, title="demo")))
    flat = picture.getpalette() or []
    palette = [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]
    assert len(palette) <= 28
    for power in power_styles(load_variant(variant)).values():
        assert tuple(int(power.colour[i:i + 2], 16) for i in (1, 3, 5)) in palette
    for i, colour in enumerate(palette):
        assert all(sum((a - b) ** 2 for a, b in zip(colour, other)) > 64 for other in palette[i + 1:]), colour


def test_a_crisp_border_is_drawn_where_it_runs_along_the_pixels_edges() -> None:
    """The terrain's borders are crisp (not anti-aliased): a stroke of one pixel exactly would vanish
    where it runs along the pixels' edges, as the grid's borders at 250, 500 and 750 px do."""
    from app.maps import publish
    from app.maps.style import BORDER
    from app.maps.terrain import base_layer
    from tests.maps.test_render_grid import grid_drawing

    drawing = grid_drawing("standard")
    scale = WIDTH / drawing.width
    picture = publish.raster(publish._svg(drawing, base_layer(drawing, "standard")), scale).convert("RGB")
    border = tuple(int(BORDER[i:i + 2], 16) for i in (1, 3, 5))
    for x in (250, 500, 750):  # the borders between the grid's columns 3, 6 and 9 and their neighbours
        assert x == round(x / scale / 100) * 100 * scale
        for y in range(20, 60):  # down the first row of squares
            assert border in (picture.getpixel((x - 1, y)), picture.getpixel((x, y))), (x, y)


@pytest.mark.parametrize("cx, cy, r", [(10.3, 12.7, 3.3), (20.0, 20.0, 5.0), (15.8, 14.2, 4.1), (9.5, 9.5, 2.6)])
def test_the_indexed_canvas_fills_a_circle_on_the_pixels_it_covers(cx: float, cy: float, r: float) -> None:
    """Pillow's ellipse takes whole pixels: the canvas gives it those whose centres the circle
    covers (cutting the fractions off would move every disc up and left, and grow it)."""
    from app.maps.canvas import IndexedCanvas

    canvas = IndexedCanvas(Image.new("P", (40, 40), 0))
    canvas.ellipse((cx - r, cy - r, cx + r, cy + r), None, 1)
    painted = [(x, y) for y in range(40) for x in range(40) if canvas.image.getpixel((x, y)) == 1]
    inside = [(x, y) for y in range(40) for x in range(40) if (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r]
    assert abs(len(painted) - len(inside)) <= len(inside) // 4
    for axis in (0, 1):  # where the disc is: its pixels' middle at the circle's centre
        assert abs(sum(p[axis] + 0.5 for p in painted) / len(painted) - (cx, cy)[axis]) < 0.3


@pytest.mark.parametrize("variant", ["standard", "zeus5", "smallworld"])
def test_the_parts_the_names_are_laid_in_hold_every_pixel_of_a_name(variant: str) -> None:
    """The names are laid over the orders box by box (only where they are): every pixel of a name
    (more than half opaque) is in a box, and the boxes hold much less than the whole picture."""
    from app.maps import publish
    from app.maps.terrain import label_layer

    drawing = load_drawing(variant)
    static = publish.static_map(variant, drawing)
    labels = publish.raster(publish._svg(drawing, label_layer(drawing, variant)), static.scale, None).convert("RGBA")
    expected = labels.getchannel("A").point(lambda alpha: 255 if alpha >= 128 else 0).convert("1")
    laid = Image.new("1", expected.size, 0)
    for where, _, mask in static.names:
        laid.paste(mask, where, mask)
    assert ImageChops.difference(laid.convert("L"), expected.convert("L")).getbbox() is None
    covered = sum(mask.width * mask.height for _, _, mask in static.names)
    assert covered < 0.5 * expected.width * expected.height
