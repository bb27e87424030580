"""Maps on the dashboard: the renderer's SVG as a response of its own (an <img> on the pages) or as
a data URI (the override preview's new map, which exists only for that request)."""

from __future__ import annotations

import base64

from fastapi import HTTPException
from fastapi.responses import Response

from app.maps import has_drawing, render_svg
from app.services.readmodels.maps import MapData
from app.services.ruleset.kinds import ruleset_for

__all__ = ["can_draw", "data_uri", "map_svg", "svg_response"]

# An SVG opened on its own must not run anything; the renderer uses presentation attributes only.
_SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'"


def can_draw(variant: str) -> bool:
    """A map game whose variant has a drawing."""
    try:
        return ruleset_for(variant).has_map and has_drawing(variant)
    except Exception:  # an unknown variant: no map, never a broken page
        return False


def map_svg(data: MapData) -> str:
    if not has_drawing(data.variant):
        raise HTTPException(status_code=404, detail=f"No map is drawn for variant '{data.variant}'.")
    return render_svg(data.variant, data.state, orders_result=data.results, title=data.title)


def svg_response(svg: str) -> Response:
    return Response(svg, media_type="image/svg+xml",
                    headers={"Content-Security-Policy": _SVG_CSP, "X-Content-Type-Options": "nosniff"})


def data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
