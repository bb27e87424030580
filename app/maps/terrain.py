"""The map under the pieces: provinces as areas, borders, crossings, names and coasts.
It depends only on the drawing and the variant, so each layer is drawn once and reused."""

from __future__ import annotations

from functools import cache

from app.variants import load_variant

from . import style
from .drawing import Crossing, Drawing, ProvinceDrawing
from .fit import name_spot
from .svg import element, esc, line_path, polygon_path, text, title

FILL = {"sea": style.SEA, "land": style.LAND, "coast": style.LAND, "impassable": "url(#impassable)"}
CROSSING_DASH = {"canal": None, "land_crossing": "6 3", "passage": "2 3", "ferry": "9 3 2 3"}
CROSSING_COLOUR = {"canal": "#1F5F99", "land_crossing": "#6B4E2E", "passage": "#1F5F99", "ferry": "#1F5F99"}


def defs(px: float) -> str:
    step = 6 * px
    return (
        "<defs>"
        f'<pattern id="impassable" patternUnits="userSpaceOnUse" width="{step:.1f}" height="{step:.1f}" '
        'patternTransform="rotate(45)">'
        + element("rect", x=0.0, y=0.0, width=step, height=step, fill=style.IMPASSABLE)
        + element("line", x1=0.0, y1=0.0, x2=0.0, y2=step, stroke=style.IMPASSABLE_HATCH, stroke_width=2.2 * px)
        + "</pattern></defs>"
    )


def _province(drawn: ProvinceDrawing, name: str, px: float) -> str:
    return element(
        "path",
        title(f"{name} ({drawn.id})"),
        d=polygon_path(drawn.shape),
        fill=FILL[drawn.kind],
        fill_rule="evenodd",
        fill_opacity=0.8 if drawn.kind == "sea" else None,  # real coastlines show through
        class_=f"province {drawn.kind}",
        id=f"p-{drawn.id}",
    )


def _crossing(crossing: Crossing, px: float) -> str:
    colour = CROSSING_COLOUR.get(crossing.kind, "#1F5F99")
    d = line_path(crossing.line)
    return (
        element("path", d=d, fill="none", stroke="#FFFFFF", stroke_width=4.5 * px, stroke_linecap="round", opacity=0.8)
        + element(
            "path",
            title(f"{crossing.kind.replace('_', ' ')}: {crossing.between[0]}–{crossing.between[1]}"),
            d=d, fill="none", stroke=colour, stroke_width=2.2 * px,
            stroke_dasharray=CROSSING_DASH.get(crossing.kind, "2 3"), stroke_linecap="round",
            class_=f"crossing {crossing.kind}",
        )
    )


def _labels(drawn: ProvinceDrawing, name: str, px: float, compute_names: bool) -> str:
    sea = drawn.kind == "sea"
    halo = {"stroke": "#FFFFFF", "stroke_width": 2.6 * px, "paint_order": "stroke", "stroke_linejoin": "round"}
    colour = style.SEA_INK if sea else style.INK
    out = [text(x, y, drawn.id, font_size=11.0 * px, font_weight="bold", fill=colour,
                text_anchor="middle", dominant_baseline="central", class_="abbr", **halo)
           for x, y in (drawn.label, *drawn.more_labels)]
    spot = drawn.name_label if not compute_names else name_spot(drawn, name, 8.5 * px, 9.5 * px)
    if spot is not None:
        out.append(text(spot[0], spot[1], name, font_size=8.5 * px, fill=colour,
                        font_style="italic" if sea else None, text_anchor="middle", dominant_baseline="central",
                        class_="name", **halo))
    for coast, where in sorted(drawn.coasts.items()):
        if where.label is not None:
            out.append(text(where.label[0], where.label[1], coast.lower(), font_size=8.0 * px, fill=style.SEA_INK,
                            font_style="italic", text_anchor="middle", dominant_baseline="central", class_="coast",
                            **halo))
    return "".join(out)


@cache
def base_layer(drawing: Drawing, variant_name: str) -> str:
    px = style.pixel(drawing.width)
    names = {pid: p.name for pid, p in load_variant(variant_name).map.provinces.items()}
    out = [defs(px), element("rect", x=0.0, y=0.0, width=drawing.width, height=drawing.height, fill=style.WATER)]
    # Areas and borders without anti-aliasing (crisp): as legible, and the published PNG's largest
    # part packs a third smaller (issue 26.1); the names, the crossings and all that changes stay
    # smooth. A border a little over a pixel wide at the published width: a crisp stroke of one
    # pixel exactly vanishes where it runs along the pixels' edges.
    out.append('<g shape-rendering="crispEdges">')
    if drawing.background_land:
        out.append(element("path", d=polygon_path(drawing.background_land), fill=style.BACKGROUND_LAND,
                           fill_rule="evenodd", class_="background"))
    ordered = sorted(drawing.provinces.values(), key=lambda p: (p.kind != "sea", p.id))
    out.append(f'<g class="provinces" stroke="{style.BORDER}" stroke-width="{1.1 * px:.2f}" stroke-linejoin="round">')
    for drawn in ordered:
        out.append(_province(drawn, names.get(drawn.id, drawn.id), px))
    out.append("</g></g>")
    out.append('<g class="crossings">' + "".join(_crossing(c, px) for c in drawing.crossings) + "</g>")
    return "".join(out)


@cache
def label_layer(drawing: Drawing, variant_name: str) -> str:
    """Names and coasts: drawn over the centre markers, the units and the arrows (not the dislodged units)."""
    px = style.pixel(drawing.width)
    names = {pid: p.name for pid, p in load_variant(variant_name).map.provinces.items()}
    # A drawing that places full names has left out those that do not fit; else we find room.
    compute = not any(d.name_label is not None for d in drawing.provinces.values())
    labels = "".join(_labels(d, names.get(d.id, d.id), px, compute) for _, d in sorted(drawing.provinces.items()))
    return f'<g class="labels" font-family="{esc(style.FONT)}">{labels}</g>'
