"""Orders and outcomes on a results map: moves as arrows, supports and convoys drawn to
what they support or convoy, holds ringed, failed orders dashed and crossed."""

from __future__ import annotations

import math

from .drawing import Drawing, Point
from .orders import BOARD, CONVOY, HOLD, LAND, MOVE, RETREAT, SUPPORT_HOLD, SUPPORT_MOVE, OrderMark
from .pieces import Piece
from .style import INK, PowerStyle
from .svg import element, line_path, num, title
from .units import piece_points

DASH_FAILED = "2.2 1.4"  # in multiples of the line width


def _towards(a: Point, b: Point, distance: float) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return a[0] + dx * distance / length, a[1] + dy * distance / length


def _shift(a: Point, b: Point, by: float) -> tuple[Point, Point]:
    """The segment moved sideways, so that two opposite arrows do not overlap."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ox, oy = -dy / length * by, dx / length * by
    return (a[0] + ox, a[1] + oy), (b[0] + ox, b[1] + oy)


def describe_mark(mark: OrderMark, powers: dict[str, PowerStyle]) -> str:
    """`France: A PIC – BEL (fails: bounce)`: the order's tooltip."""
    path = " – ".join(mark.path)
    what = {
        HOLD: "holds", MOVE: f"– {path}", RETREAT: f"retreats to {path}", BOARD: f"boards the fleet in {path}",
        LAND: f"– {path} (lands)", SUPPORT_HOLD: f"supports {path}", SUPPORT_MOVE: f"supports {path}",
        CONVOY: f"convoys {path}",
    }.get(mark.kind, mark.kind)
    power = powers[mark.power].name if mark.power in powers else mark.power
    return f"{power}: {mark.unit} {what}" + ("" if mark.ok else f" (fails: {mark.reason.replace('_', ' ')})")


class ArrowPainter:
    def __init__(self, drawing: Drawing, pieces: tuple[Piece, ...], powers: dict[str, PowerStyle], r: float) -> None:
        self.drawing, self.powers, self.r = drawing, powers, r
        self.pieces = pieces
        self.at: dict[tuple[str, bool], Piece] = {(p.province, p.dislodged): p for p in pieces}

    # -- geometry ---------------------------------------------------------------

    def _piece_point(self, province: str, dislodged: bool = False) -> Point | None:
        found = self.at.get((province, dislodged)) or self.at.get((province, not dislodged))
        if found is None or found.secret_site:
            return None
        return piece_points(found, self.drawing, self.r)[0]

    def _place(self, location: str) -> Point | None:
        province = location.split("/")[0]
        if province not in self.drawing.provinces:
            return None
        return self.drawing.anchor(location)

    # -- primitives ---------------------------------------------------------------

    def _line(self, points: list[Point], mark: OrderMark, width: float, dash: str | None, head: bool, cls: str,
              words: str, extra: str = "") -> str:
        power = self.powers.get(mark.power)
        colour = power.colour if power else INK
        if not mark.ok:
            dash = " ".join(num(float(v) * width) for v in DASH_FAILED.split())
        end, before = points[-1], points[-2]
        body = list(points)
        out = [f'<g class="order order-{cls}{"" if mark.ok else " failed"}">', title(words)]
        if head:
            body[-1] = _towards(end, before, 1.6 * width)
        d = line_path(body)
        out.append(element("path", d=d, fill="none", stroke=INK, stroke_width=width + 2.0 * self.r * 0.16,
                           stroke_dasharray=dash, stroke_linecap="butt", stroke_linejoin="round"))
        out.append(element("path", d=d, fill="none", stroke=colour, stroke_width=width, stroke_dasharray=dash,
                           stroke_linecap="butt", stroke_linejoin="round"))
        if head:
            out.append(self._head(before, end, width, colour))
        if not mark.ok:  # crossed where the last leg is two-thirds done: the head still shows the way
            out.append(self._cross((before[0] + (end[0] - before[0]) * 0.66, before[1] + (end[1] - before[1]) * 0.66)))
        out.append(extra + "</g>")
        return "".join(out)

    def _head(self, a: Point, b: Point, width: float, colour: str) -> str:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        size = 3.2 * width
        base = (b[0] - ux * size, b[1] - uy * size)
        left = (base[0] - uy * size * 0.6, base[1] + ux * size * 0.6)
        right = (base[0] + uy * size * 0.6, base[1] - ux * size * 0.6)
        points = " ".join(f"{num(x)},{num(y)}" for x, y in (b, left, right))
        return element("polygon", points=points, fill=colour, stroke=INK, stroke_width=0.16 * self.r,
                       stroke_linejoin="round", class_="head")

    def _cross(self, at: Point) -> str:
        x, y, s = at[0], at[1], 0.7 * self.r
        d = f"M{num(x - s)} {num(y - s)}L{num(x + s)} {num(y + s)}M{num(x + s)} {num(y - s)}L{num(x - s)} {num(y + s)}"
        return (element("path", d=d, stroke="#FFFFFF", stroke_width=0.55 * self.r, stroke_linecap="round")
                + element("path", d=d, stroke=INK, stroke_width=0.3 * self.r, stroke_linecap="round", class_="fail-cross"))

    # -- order kinds ----------------------------------------------------------------

    def draw(self, mark: OrderMark, supported_moves: dict[str, str]) -> str:
        words = describe_mark(mark, self.powers)
        dislodged = mark.kind == RETREAT
        start = self._piece_point(mark.province, dislodged)
        if start is None:
            return ""
        r, move_w, thin = self.r, 0.42 * self.r, 0.24 * self.r
        if mark.kind == HOLD:
            ring = element("circle", cx=start[0], cy=start[1], r=1.5 * r, fill="none", stroke=INK, stroke_width=0.3 * r,
                           stroke_dasharray=None if mark.ok else f"{num(0.5 * r)} {num(0.3 * r)}")
            return f'<g class="order order-hold{"" if mark.ok else " failed"}">{title(words)}{ring}</g>'
        if mark.kind in (MOVE, RETREAT, BOARD):
            target = self._place(mark.path[0]) if mark.kind != BOARD else self._piece_point(mark.path[0])
            if target is None:
                return ""
            a, b = _shift(start, target, 0.3 * r)
            a, b = _towards(a, b, 1.1 * r), _towards(b, a, 0.9 * r)
            cls = {MOVE: "move", RETREAT: "retreat", BOARD: "board"}[mark.kind]
            dash = {MOVE: None, RETREAT: f"{num(1.2 * r)} {num(0.35 * r)} {num(0.3 * r)} {num(0.35 * r)}",
                    BOARD: f"{num(0.45 * r)} {num(0.3 * r)}"}[mark.kind]
            return self._line([a, b], mark, move_w if mark.kind != BOARD else thin * 1.4, dash, True, cls, words)
        if mark.kind == LAND:
            points = [start] + [p for p in (self._place(loc) for loc in mark.path) if p is not None]
            if len(points) < 2:
                return ""
            points[0] = _towards(points[0], points[1], 1.1 * r)
            points[-1] = _towards(points[-1], points[-2], 0.9 * r)
            return self._line(points, mark, move_w, None, True, "land", words)
        if mark.kind == SUPPORT_HOLD:
            target = self._piece_point(mark.path[0])
            if target is None:
                return ""
            end = _towards(target, start, 1.45 * r)
            ring = element("circle", cx=target[0], cy=target[1], r=1.45 * r, fill="none", stroke=INK,
                           stroke_width=0.16 * r, stroke_dasharray=f"{num(0.3 * r)} {num(0.25 * r)}")
            return self._line([_towards(start, end, 1.1 * r), end], mark, thin, f"{num(0.5 * r)} {num(0.3 * r)}",
                              False, "support-hold", words, extra=ring)
        if mark.kind in (SUPPORT_MOVE, CONVOY):
            source = self._piece_point(mark.path[0])
            target = self._place(mark.path[1])
            if source is None or target is None:
                return ""
            a, b = _shift(source, target, 0.3 * r)
            end = (a[0] + (b[0] - a[0]) * 0.6, a[1] + (b[1] - a[1]) * 0.6) if mark.kind == SUPPORT_MOVE else \
                ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            if mark.path[0] not in supported_moves:  # the supported unit did not order that move: to its target
                end = _towards(b, start, 0.9 * r)
            dash = f"{num(0.5 * r)} {num(0.3 * r)}" if mark.kind == SUPPORT_MOVE else \
                f"{num(1.1 * r)} {num(0.3 * r)} {num(0.25 * r)} {num(0.3 * r)}"
            dot = element("circle", cx=end[0], cy=end[1], r=0.38 * r, fill=INK, class_="end")
            return self._line([_towards(start, end, 1.1 * r), end], mark, thin, dash, False, mark.kind, words, extra=dot)
        return ""


def draw_orders(drawing: Drawing, pieces: tuple[Piece, ...], marks: tuple[OrderMark, ...],
                powers: dict[str, PowerStyle], r: float) -> str:
    painter = ArrowPainter(drawing, pieces, powers, r)
    supported_moves = {m.province: m.path[-1] for m in marks if m.kind in (MOVE, LAND)}
    first = [m for m in marks if m.kind in (SUPPORT_HOLD, SUPPORT_MOVE, CONVOY, HOLD)]
    last = [m for m in marks if m not in first]
    return '<g class="orders">' + "".join(painter.draw(m, supported_moves) for m in first + last) + "</g>"


def draw_retreat_options(drawing: Drawing, pieces: tuple[Piece, ...], r: float) -> str:
    """Thin dotted lines from each dislodged unit to the places it may retreat to."""
    out = ['<g class="retreat-options">']
    for piece in pieces:
        if not piece.dislodged or piece.secret_site or not piece.retreats:
            continue
        start = piece_points(piece, drawing, r)[0]
        for option in piece.retreats:
            if option.split("/")[0] not in drawing.provinces:
                continue
            end = drawing.anchor(option)
            a, b = _towards(start, end, 1.6 * r), _towards(end, start, 0.6 * r)
            out.append(element("path", title(f"may retreat to {option}"), d=line_path([a, b]), fill="none", stroke=INK,
                               stroke_width=0.14 * r, stroke_dasharray=f"{num(0.2 * r)} {num(0.25 * r)}",
                               class_="retreat-option"))
            out.append(element("circle", cx=b[0], cy=b[1], r=0.3 * r, fill="#FFFFFF", stroke=INK,
                               stroke_width=0.12 * r))
    out.append("</g>")
    return "".join(out)
