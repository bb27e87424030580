"""Maps: a position or a phase's results as SVG (`render_svg`) and PNG (`render_png`,
`phase_map_png`). Pure: data in, picture out; no database, mail or web here."""

from .drawing import Drawing, DrawingError, drawing_from_data, has_drawing, load_drawing
from .png import render_png
from .publish import phase_map_png
from .render import render_svg

RENDERER_VERSION = 5  # part of a cached map's key: raise it when the pictures change

__all__ = ["RENDERER_VERSION", "Drawing", "DrawingError", "drawing_from_data", "has_drawing", "load_drawing", "phase_map_png", "render_png", "render_svg"]
