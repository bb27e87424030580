"""Type for the painter (`paint.py`): FreeType's masks of words, through Pillow, kept.

aggdraw draws type neither in black and white nor quickly; a mask is drawn once and laid wherever
the words recur (a board's letters, a legend's words): anti-aliased, or in FreeType's rendering
for black and white (legible at the 7 or 8 pixels of a centre's letter, where a threshold of
anti-aliased glyphs is not).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

__all__ = ["CENTRAL", "Fonts", "font_set", "glyphs", "smooth_masks"]

# DejaVu Sans (the font the map is drawn in): `dominant-baseline="central"` puts the baseline this
# far below y, in em, as resvg does: half of ascender minus descender (1901 and 483 of 2048).
CENTRAL = (1901 - 483) / 2048 / 2


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str
    oblique: str


@cache
def _font(file: str, size: float) -> Any:
    return ImageFont.truetype(file, size)


@lru_cache(maxsize=4096)
def glyphs(words: str, file: str, size: float, mono: bool) -> tuple[Any, tuple[int, int], float]:
    """`words` in the font `file` at `size`, by FreeType (hinted, as aggdraw's and resvg's type),
    anti-aliased or `mono` (rendered for black and white: legible at the 7 or 8 pixels of a
    centre's letter, where a threshold of anti-aliased glyphs is not): the mask of its pixels, the
    mask's top left from the start of the baseline, and the words' advance. Kept: a legend's and a
    board's words repeat, and FreeType takes ten times longer to draw them than a mask to lay."""
    font = _font(file, size)
    mode = "1" if mono else "L"
    left, top, right, bottom = font.getbbox(words, mode=mode, anchor="ls")
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    draw = ImageDraw.Draw(mask)
    draw.fontmode = mode
    draw.text((-left, -top), words, font=font, fill=255, anchor="ls")
    return mask, (left, top), float(font.getlength(words, mode=mode))


@lru_cache(maxsize=4096)
def smooth_masks(words: str, file: str, size: float) -> tuple[Any, Any]:
    """The anti-aliased mask of `glyphs` as two (edge, core): the pixels a quarter to five eighths
    covered, and those more (about what a palette of ink, its blend over white and white makes of
    them; the ink a little bolder, as thin strokes lose ink to the blend)."""
    mask = glyphs(words, file, size, False)[0]
    return mask.point(lambda v: 255 if 64 <= v < 160 else 0), mask.point(lambda v: 255 if v >= 160 else 0)


def font_set(files: Sequence[str]) -> Fonts:
    """The regular, bold and oblique DejaVu Sans files among `files` (app/maps/png.py finds them)."""
    by_name = {Path(f).name: f for f in files}
    regular = by_name["DejaVuSans.ttf"]
    return Fonts(regular, by_name.get("DejaVuSans-Bold.ttf", regular), by_name.get("DejaVuSans-Oblique.ttf", regular))
