"""`render_svg`: a position, or a phase's results, as one SVG picture. Pure: data in, text out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine.phases import PhaseKind
from app.engine.state import NEUTRAL
from app.variants import load_variant

from .arrows import draw_orders, draw_retreat_options
from .board import Board, build_board
from .drawing import Drawing, load_drawing
from .legend import draw_legend, legend_height
from .style import FONT, pixel, power_styles
from .svg import esc
from .terrain import base_layer, label_layer
from .units import draw_centre, draw_piece


def render_svg(
    variant_name: str,
    position: dict[str, Any] | None,
    *,
    orders_result: dict[str, Any] | None = None,
    title: str | None = None,
    drawing: Drawing | None = None,
) -> str:
    """The map of `position` (a state in the JSON of `judge adjudicate`; `None` or no
    `units`: the variant's start), or with `orders_result` (the adjudication of that
    position) the map of the phase's orders and outcomes. `title` names the game in the
    legend. Nothing secret is drawn: a hidden build appears in its public form
    (`F NYK/CAL`), hidden starts without their coast or type until revealed."""
    variant = load_variant(variant_name)
    drawing = drawing or load_drawing(variant_name)
    board = build_board(variant, position, orders_result)
    return svg_of_board(board, drawing, variant_name, title or variant.title)


@dataclass(frozen=True)
class MapLayers:
    """One map's SVG in the order it is drawn: `head` (the `<svg>` tag and its title), the terrain
    (`base`, the same for every map of a drawing), what is drawn under the names (`under_labels`:
    centres, retreat options, units, orders), the names (`labels`, the same for every map), what is
    drawn over them (`over_labels`: dislodged units) and the `legend` under the map, `height` high
    in all. The PNG a mail carries draws `base` and `labels` once per drawing (app/maps/publish.py)."""

    head: str
    base: str
    under_labels: str
    labels: str
    over_labels: str
    legend: str
    width: float
    height: float

    def svg(self) -> str:
        return "".join((self.head, self.base, self.under_labels, self.labels, self.over_labels, self.legend, "</svg>"))


def svg_of_board(board: Board, drawing: Drawing, variant_name: str, heading: str) -> str:
    return layers_of_board(board, drawing, variant_name, heading).svg()


def layers_of_board(board: Board, drawing: Drawing, variant_name: str, heading: str) -> MapLayers:
    px = pixel(drawing.width)
    r = 9.5 * px
    powers = power_styles(board.variant)
    width, height = drawing.width, drawing.height + legend_height(board, px)
    head = ('<svg xmlns="http://www.w3.org/2000/svg" '
            f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'font-family="{esc(FONT)}" class="map">'
            f"<title>{esc(heading)}: {esc(board.phase.describe())}</title>")
    out = ['<g class="centres">']
    for province, drawn in sorted(drawing.provinces.items()):
        info = board.variant.map.provinces.get(province)
        if info is None or not info.centre or drawn.centre is None:
            continue
        owner = board.centres.get(province)
        out.append(draw_centre(province, drawn.centre, powers.get(owner) if owner else None, px))
    out.append("</g>")
    if not (board.results and board.phase.kind is PhaseKind.RETREAT):
        out.append(draw_retreat_options(drawing, board.pieces, r))
    standing = sorted((p for p in board.pieces if not p.dislodged and p.province in drawing.provinces),
                      key=lambda p: p.province)
    aside = sorted((p for p in board.pieces if p.dislodged and p.province in drawing.provinces),
                   key=lambda p: p.province)
    out.append('<g class="units">')
    out.extend(draw_piece(piece, drawing, powers.get(piece.power) or powers[NEUTRAL], r) for piece in standing)
    out.append("</g>")
    if board.results:  # above the units: arrows start and end beside them
        out.append(draw_orders(drawing, board.pieces, board.marks, powers, r))
    # Names above the arrows, so no arrow covers one (issue 22.14); they keep clear of the
    # units' places (tests/maps/test_map_legibility.py).
    labels = label_layer(drawing, variant_name)
    # Dislodged units last, so they stay visible beside their attacker.
    over = ['<g class="units dislodged-units">']
    over.extend(draw_piece(piece, drawing, powers.get(piece.power) or powers[NEUTRAL], r) for piece in aside)
    over.append("</g>")
    legend = draw_legend(board, powers, drawing.height, width, px, heading)
    return MapLayers(head, base_layer(drawing, variant_name), "".join(out), labels, "".join(over), legend,
                     width, height)
