"""Pieces and supply centres: shape for the unit type, colour and letter for the power."""

from __future__ import annotations

import math

from .drawing import Drawing, Point
from .pieces import UNDECLARED, Piece
from .style import INK, PowerStyle
from .svg import element, esc, num, text, title

TYPE_WORDS = {"A": "Army", "F": "Fleet", "AF": "Army/Fleet", UNDECLARED: "Unit (army or fleet, not yet declared)"}
ASIDE_ANGLE = math.radians(55)
DISLODGED_OFFSET = 1.7  # radii right and down: beside the unit that took its place
MARK_WORDS = {
    "built": "built", "removed": "removed", "disbanded": "disbanded", "destroyed": "destroyed",
    "army_lost": "its army is lost at sea",
}


def piece_points(piece: Piece, drawing: Drawing, r: float) -> list[Point]:
    """Where a piece is drawn: its anchor (each possible site of a secret build; the
    province's anchor when the coast is secret), offset when dislodged."""
    if piece.secret_site:
        points = [drawing.provinces[s].unit for s in piece.sites if s in drawing.provinces]
    elif piece.secret_coast:
        points = [drawing.provinces[piece.province].unit]
    else:
        points = [drawing.anchor(piece.location)]
    if piece.dislodged:
        dx, dy = _aside(piece, drawing, points[0])
        points = [(x + dx * r, y + dy * r) for x, y in points]
    return points


def _aside(piece: Piece, drawing: Drawing, at: Point) -> Point:
    """Which way a dislodged unit is drawn (in radii): pushed on by its attacker and to
    the side, so the attacking arrow does not run over it; else down and to the right."""
    attacker = drawing.provinces.get(piece.attacker or "")
    if attacker is None:
        return DISLODGED_OFFSET, DISLODGED_OFFSET
    ux, uy = at[0] - attacker.unit[0], at[1] - attacker.unit[1]
    length = math.hypot(ux, uy) or 1.0
    ux, uy = ux / length, uy / length
    cos, sin = math.cos(ASIDE_ANGLE), math.sin(ASIDE_ANGLE)
    return 2.4 * (ux * cos - uy * sin), 2.4 * (ux * sin + uy * cos)


def unit_shape(unit_type: str, x: float, y: float, r: float, fill: str, dashed: bool) -> str:
    common = {"fill": fill, "stroke": INK, "stroke_width": 0.16 * r, "stroke_dasharray": f"{num(0.5 * r)} {num(0.3 * r)}" if dashed else None}
    hull = [(-1.3, -0.55), (1.3, -0.55), (0.85, 0.8), (-0.85, 0.8)]
    if unit_type == "A":
        return element("circle", cx=x, cy=y, r=r, class_="shape army", **common)
    if unit_type == "F":
        points = " ".join(f"{num(x + dx * r)},{num(y + dy * r)}" for dx, dy in hull)
        return element("polygon", points=points, class_="shape fleet", **common)
    if unit_type == "AF":
        points = " ".join(f"{num(x + dx * r)},{num(y + 0.25 * r + dy * r)}" for dx, dy in hull)
        return (element("polygon", points=points, class_="shape fleet", **common)
                + element("circle", cx=x, cy=y - 0.55 * r, r=0.62 * r, class_="shape army", **common))
    return element("rect", x=x - r, y=y - r, width=2 * r, height=2 * r, rx=0.35 * r, class_="shape undeclared", **common)


def _letter(x: float, y: float, r: float, power: PowerStyle, unit_type: str) -> str:
    dy = 0.2 * r if unit_type == "AF" else 0.0
    return text(x, y + dy, power.letter, font_size=1.3 * r, font_weight="bold", fill=power.ink, text_anchor="middle",
                dominant_baseline="central", class_="letter")


def _tag(x: float, y: float, r: float, label: str, fill: str) -> str:
    """A small round tag at the unit's upper right: `?` secret, `+` built."""
    cx, cy = x + 1.0 * r, y - 0.95 * r
    return (element("circle", cx=cx, cy=cy, r=0.55 * r, fill=fill, stroke=INK, stroke_width=0.1 * r)
            + text(cx, cy, label, font_size=0.85 * r, font_weight="bold", fill="#000000" if fill != INK else "#FFFFFF",
                   text_anchor="middle", dominant_baseline="central"))


def _cross(x: float, y: float, r: float, cls: str) -> str:
    d = f"M{num(x - r)} {num(y - r)}L{num(x + r)} {num(y + r)}M{num(x + r)} {num(y - r)}L{num(x - r)} {num(y + r)}"
    return (element("path", d=d, stroke="#FFFFFF", stroke_width=0.55 * r, stroke_linecap="round")
            + element("path", d=d, stroke=INK, stroke_width=0.28 * r, stroke_linecap="round", class_=cls))


def describe(piece: Piece, power: PowerStyle) -> str:
    words = f"{TYPE_WORDS[piece.type]} ({piece.public_text}) of {power.name}"
    if piece.secret_site:
        words += f": built in one of {', '.join(piece.sites)}, which is secret"
    elif piece.secret_coast:
        words += ": its coast is not declared yet"
    if piece.dislodged and piece.mark == "destroyed":
        if piece.retreats:  # a retreat phase's results: its retreat bounced with another
            return words + f", dislodged, its retreat to {', '.join(piece.retreats)} bounced: destroyed"
        return words + ", dislodged with no retreat: destroyed"
    if piece.dislodged:
        words += ", dislodged" + (f" (may retreat to {', '.join(piece.retreats)})" if piece.retreats else "")
    if piece.mark:
        words += ", " + MARK_WORDS[piece.mark]
    return words


def draw_piece(piece: Piece, drawing: Drawing, power: PowerStyle, r: float) -> str:
    classes = ["unit", f"type-{ {'AF': 'af', UNDECLARED: 'undeclared'}.get(piece.type, piece.type.lower())}",
               f"power-{power.id.lower()}"]
    destroyed = piece.mark == "destroyed"  # drawn aside too, but crossed: it does not retreat
    if piece.dislodged and not destroyed:
        classes.append("dislodged")
    if piece.mark:
        classes.append(f"mark-{piece.mark.replace('_', '-')}")
    secret = piece.secret_site or piece.secret_coast or piece.type == UNDECLARED
    out = [f'<g class="{esc(" ".join(classes))}">', title(describe(piece, power))]
    for x, y in piece_points(piece, drawing, r):
        if piece.dislodged and not destroyed:
            out.append(element("circle", cx=x, cy=y, r=1.3 * r, fill="#FFFFFF", fill_opacity=0.7, stroke=INK,
                               stroke_width=0.16 * r, stroke_dasharray=f"{num(0.35 * r)} {num(0.25 * r)}",
                               class_="dislodged-ring"))
        if piece.mark == "built":
            out.append(element("circle", cx=x, cy=y, r=1.6 * r, fill="none", stroke=INK, stroke_width=0.22 * r,
                               class_="order-build"))
        out.append(unit_shape(piece.type, x, y, r, power.colour, dashed=piece.secret_site))
        out.append(_letter(x, y, r, power, piece.type))
        if secret:
            out.append(_tag(x, y, r, "?", "#FFFFFF"))
        elif piece.mark == "built":
            out.append(_tag(x, y, r, "+", "#FFFFFF"))
        if piece.mark in ("removed", "disbanded", "destroyed"):
            cls = {"removed": "order-remove", "disbanded": "order-disband", "destroyed": "destroyed"}[piece.mark]
            out.append(_cross(x, y, 0.95 * r, cls))
        elif piece.mark == "army_lost":
            out.append(_cross(x, y - 0.55 * r, 0.6 * r, "army-lost"))
    out.append("</g>")
    return "".join(out)


def draw_centre(province: str, where: Point, owner: PowerStyle | None, px: float) -> str:
    x, y = where
    r = 6.2 * px
    if owner is None:
        return (f'<g class="centre unowned">{title(f"{province}: supply centre, unowned")}'
                + element("circle", cx=x, cy=y, r=r, fill="#FFFFFF", stroke=INK, stroke_width=1.3 * px)
                + element("circle", cx=x, cy=y, r=1.6 * px, fill=INK) + "</g>")
    return (f'<g class="centre owned owner-{esc(owner.id.lower())}">{title(f"{province}: supply centre of {owner.name}")}'
            + element("circle", cx=x, cy=y, r=r, fill=owner.colour, stroke=INK, stroke_width=1.3 * px)
            + text(x, y, owner.letter, font_size=8.4 * px, font_weight="bold", fill=owner.ink, text_anchor="middle",
                   dominant_baseline="central") + "</g>")
