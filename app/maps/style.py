"""Colours and sizes. Powers get the Okabe–Ito palette (safe for colour-blind readers);
colour is never the only sign: every unit and owned centre also carries its power's letter."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.state import NEUTRAL
from app.engine.variant import Variant

OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")
# Colours close to the usual ones where the palette allows.
PREFERRED = {
    "AUSTRIA": "#D55E00", "ENGLAND": "#0072B2", "FRANCE": "#56B4E9", "GERMANY": "#000000",
    "ITALY": "#009E73", "RUSSIA": "#CC79A7", "TURKEY": "#F0E442",
}
NEUTRAL_COLOUR = "#8C8C8C"
NEUTRAL_LETTER = "–"

WATER = "#9CC7E4"
SEA = "#B9DCF2"
LAND = "#F2E8CF"
BACKGROUND_LAND = "#E4DAC0"
IMPASSABLE = "#A39E93"
IMPASSABLE_HATCH = "#6E6A61"
BORDER = "#5B5345"
INK = "#1A1A1A"
SEA_INK = "#17466E"  # the names of seas and coasts
FAILED = "#1A1A1A"
FONT = "DejaVu Sans, Verdana, sans-serif"


@dataclass(frozen=True)
class PowerStyle:
    id: str
    name: str
    letter: str
    colour: str
    ink: str  # the letter's colour on `colour`


def _luminance(colour: str) -> float:
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: str) -> str:
    return "#000000" if _luminance(colour) > 0.45 else "#FFFFFF"


def power_styles(variant: Variant) -> dict[str, PowerStyle]:
    used = {PREFERRED[p.id] for p in variant.powers if p.id in PREFERRED}
    spare = [c for c in OKABE_ITO if c not in used]
    styles = {}
    for power in variant.powers:
        colour = PREFERRED.get(power.id) or (spare.pop(0) if spare else NEUTRAL_COLOUR)
        styles[power.id] = PowerStyle(power.id, power.name, power.letter, colour, ink_on(colour))
    styles[NEUTRAL] = PowerStyle(NEUTRAL, "Neutral", NEUTRAL_LETTER, NEUTRAL_COLOUR, "#FFFFFF")
    return styles


def pixel(width: float) -> float:
    """One pixel, in drawing units, of the picture drawn 1,000 pixels wide (the narrowest we
    publish): sizes are chosen to read at that size, so a wider drawing gets larger type."""
    return width / 1000.0
