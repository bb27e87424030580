"""The centre-count chart as inline SVG: geometry only, the template draws it (escaped)."""

from __future__ import annotations

from dataclasses import dataclass

from app.services.readmodels.dashboard import CentreHistory

__all__ = ["Chart", "Line", "centre_chart"]

# Distinguishable on white and for the common colour-blindnesses (Okabe-Ito, then Tol's).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#882255", "#117733", "#332288", "#AA4499", "#44AA99", "#999933", "#661100")
WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 40, 16, 16, 36


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    points: str  # the SVG polyline's points attribute
    last: int
    dash: str  # a dash pattern as well as a colour, so lines differ without colour too


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    x_ticks: tuple[tuple[float, str], ...]
    y_ticks: tuple[tuple[float, int], ...]
    left: int
    right: int
    top: int
    bottom: int


def centre_chart(history: CentreHistory) -> Chart | None:
    """Polylines of centre counts per power over the years, or None with fewer than two points."""
    if len(history.labels) < 2 or not history.series:
        return None
    top_count = max(4, *(max(counts) for _name, counts in history.series))
    steps = len(history.labels) - 1
    span_x = WIDTH - LEFT - RIGHT
    span_y = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + span_x * i / steps, 1)

    def y(count: int) -> float:
        return round(TOP + span_y * (1 - count / top_count), 1)

    dashes = ("", "6 3", "2 3", "8 3 2 3")
    lines = tuple(
        Line(name, PALETTE[n % len(PALETTE)], " ".join(f"{x(i)},{y(c)}" for i, c in enumerate(counts)),
             counts[-1], dashes[(n // 7) % len(dashes)])
        for n, (name, counts) in enumerate(history.series)
    )
    every = max(1, steps // 10)
    x_ticks = tuple((x(i), label) for i, label in enumerate(history.labels) if i % every == 0 or i == steps)
    y_step = max(1, top_count // 5)
    y_ticks = tuple((y(v), v) for v in range(0, top_count + 1, y_step))
    return Chart(WIDTH, HEIGHT, lines, x_ticks, y_ticks, LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM)
