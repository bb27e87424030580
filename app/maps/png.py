"""SVG to PNG with resvg (the `resvg-py` package: no system library): `judge map --png` and the
layers every published map shares (`publish.py` draws the PNG a mail carries)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

MIN_WIDTH = 1000  # pixels
_WIDTH = re.compile(r'<svg[^>]*?\swidth="([0-9.]+)"')
# Debian's fonts-dejavu-core and fonts-dejavu-extra (scripts/system-deps.sh), loaded explicitly so the
# picture never depends on which fonts a machine happens to have.
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"), Path("/usr/share/fonts/TTF"))
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf")


class MissingFont(RuntimeError):
    """No DejaVu Sans on this machine: text would not render."""


@cache
def font_files() -> tuple[str, ...]:
    for folder in FONT_DIRS:
        found = tuple(str(folder / name) for name in FONT_FILES if (folder / name).is_file())
        if found and found[0].endswith(FONT_FILES[0]):
            return found
    raise MissingFont("DejaVu Sans not found: install Debian's fonts-dejavu-core and fonts-dejavu-extra (scripts/system-deps.sh runtime)")


def natural_width(svg: str) -> int:
    """The SVG's own width in pixels (a map's sizes are chosen to read at it), at least 1,000."""
    found = _WIDTH.search(svg[:2000])
    return max(MIN_WIDTH, round(float(found.group(1))) if found else MIN_WIDTH)


def render_png(svg: str, width: int | None = None) -> bytes:
    """The SVG as a PNG `width` pixels wide (default: its natural width; never under
    1,000), text in DejaVu Sans."""
    import resvg_py  # only here: drawing SVG needs no rasterizer

    return bytes(resvg_py.svg_to_bytes(
        svg_string=svg,
        width=max(int(width or natural_width(svg)), MIN_WIDTH),
        skip_system_fonts=True,
        font_files=list(font_files()),
        font_family="DejaVu Sans",
        sans_serif_family="DejaVu Sans",
        background="#FFFFFF",
    ))
