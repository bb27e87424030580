"""The legend under the map: game, phase, powers with their centres and units, and a key."""

from __future__ import annotations

from .board import Board
from .orders import WAIVE
from .style import FONT, INK, PowerStyle
from .svg import element, esc, text
from .units import unit_shape

PER_ROW = 4


def _waived(board: Board) -> list[str]:
    return sorted({m.power for m in board.marks if m.kind == WAIVE and m.ok})


def legend_height(board: Board, px: float) -> float:
    rows = -(-len(board.variant.powers) // PER_ROW)
    return (40 + 24 * rows + (52 if board.results else 28) + (22 if _waived(board) else 0)) * px


def _power_cell(x: float, y: float, cell: float, power: PowerStyle, centres: int, units: int, px: float) -> str:
    r = 8.5 * px
    return (
        element("circle", cx=x + r, cy=y, r=r, fill=power.colour, stroke=INK, stroke_width=1.2 * px)
        + text(x + r, y, power.letter, font_size=11 * px, font_weight="bold", fill=power.ink, text_anchor="middle",
               dominant_baseline="central")
        + text(x + 2 * r + 6 * px, y, power.name, font_size=13 * px, font_weight="bold", fill=INK,
               dominant_baseline="central")
        + text(x + cell - 14 * px, y, f"{centres} SC · {units} units", font_size=12 * px, fill=INK,
               text_anchor="end", dominant_baseline="central", class_="counts")
    )


def _key(x: float, y: float, px: float, results: bool) -> str:
    r = 7 * px
    out = []
    items = [("A", "army"), ("F", "fleet"), ("AF", "army aboard a fleet (A/F)"), ("?", "not yet declared")]
    for unit_type, words in items:
        out.append(unit_shape(unit_type, x + r * 1.4, y, r, "#FFFFFF", dashed=False))
        out.append(text(x + r * 3.2, y, words, font_size=11 * px, fill=INK, dominant_baseline="central"))
        x += r * 3.2 + 0.6 * 11 * px * len(words) + 14 * px
    out.append(element("circle", cx=x + r, cy=y, r=5.6 * px, fill="#FFFFFF", stroke=INK, stroke_width=1.3 * px))
    out.append(element("circle", cx=x + r, cy=y, r=1.6 * px, fill=INK))
    out.append(text(x + r * 2.6, y, "unowned centre", font_size=11 * px, fill=INK, dominant_baseline="central"))
    x += r * 2.6 + 0.6 * 11 * px * 14 + 14 * px
    out.append(text(x, y, "– neutral", font_size=11 * px, fill=INK, dominant_baseline="central"))
    if not results:
        return "".join(out)
    y += 22 * px
    x = 12 * px
    lines = [("move", None), ("support", "4 3"), ("convoy", "9 3 2 3"), ("retreat", "12 3 3 3"), ("failed ×", "4 3")]
    for words, dash in lines:
        out.append(element("path", d=f"M{x:.1f} {y:.1f}h{30 * px:.1f}", stroke=INK, stroke_width=3 * px,
                           stroke_dasharray=None if dash is None else " ".join(f"{float(v) * px:.1f}" for v in dash.split())))
        out.append(text(x + 36 * px, y, words, font_size=11 * px, fill=INK, dominant_baseline="central"))
        x += 36 * px + 0.6 * 11 * px * len(words) + 12 * px  # the row must fit 1,000 px
    for words in ("○ hold", "◌ dislodged (drawn aside)", "+ built", "× removed, disbanded or destroyed"):
        out.append(text(x, y, words, font_size=11 * px, fill=INK, dominant_baseline="central"))
        x += 0.6 * 11 * px * len(words) + 12 * px
    return "".join(out)


def draw_legend(board: Board, powers: dict[str, PowerStyle], top: float, width: float, px: float, heading: str) -> str:
    out = [f'<g class="legend" font-family="{esc(FONT)}">',
           element("rect", x=0.0, y=top, width=width, height=legend_height(board, px), fill="#FFFFFF"),
           element("line", x1=0.0, y1=top, x2=width, y2=top, stroke=INK, stroke_width=1.5 * px)]
    kind = "results" if board.results else "position"
    out.append(text(12 * px, top + 20 * px, heading, font_size=16 * px, font_weight="bold", fill=INK,
                    dominant_baseline="central", class_="heading"))
    out.append(text(width - 12 * px, top + 20 * px, f"{board.phase.describe()} · {kind}", font_size=14 * px,
                    fill=INK, text_anchor="end", dominant_baseline="central", class_="phase"))
    centres, units = board.centre_counts(), board.unit_counts()
    cell = (width - 24 * px) / PER_ROW
    y = top + 44 * px
    for i, power in enumerate(board.variant.powers):
        x = 12 * px + (i % PER_ROW) * cell
        out.append(_power_cell(x, y + (i // PER_ROW) * 24 * px, cell, powers[power.id], centres[power.id], units[power.id], px))
    y += -(-len(board.variant.powers) // PER_ROW) * 24 * px + 4 * px
    out.append(_key(12 * px, y, px, board.results))
    if board.winner:
        name = powers[board.winner].name if board.winner in powers else board.winner
        out.append(text(width / 2, top + 20 * px, f"{name} wins", font_size=16 * px, font_weight="bold", fill=INK,
                        text_anchor="middle", dominant_baseline="central", class_="winner"))
    waived = _waived(board)
    if waived:  # a row of its own, under the key (a long list would run into it)
        names = ", ".join(powers[p].name for p in waived if p in powers)
        out.append(text(12 * px, y + (44 if board.results else 22) * px, f"Waived builds: {names}", font_size=11 * px,
                        fill=INK, dominant_baseline="central", class_="order-waive"))
    out.append("</g>")
    return "".join(out)
