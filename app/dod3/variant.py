"""What the mail server needs to know about Days of Decision III as a "variant": its powers.

A DoD III game on the judge has ``Game.variant == "dod3"``; there is no map (the
judge is a GM aid), so the variant data is only the eight major powers with the
letters and names players use to sign on (``SIGNON cw@game password`` or
``SIGNON Cgame password``).
"""

from __future__ import annotations

from typing import Any

from .powers import IDEOLOGY_OF, INITIAL_TRACK, POWERS

__all__ = ["LETTERS", "SHORT_NAMES", "VARIANT", "variant_info"]

VARIANT = "dod3"

# Sign-on letters: M and O stay free for master@ and observer@.
LETTERS: dict[str, str] = {"CH": "N", "CW": "C", "FR": "F", "US": "U", "GE": "G", "IT": "I", "JA": "J", "RU": "R"}

# Names short enough for 72-column reports.
SHORT_NAMES: dict[str, str] = {
    "CH": "Nationalist China",
    "CW": "Commonwealth",
    "FR": "France",
    "US": "USA",
    "GE": "Germany",
    "IT": "Italy",
    "JA": "Japan",
    "RU": "Soviet Union",
}

_ADJECTIVES = {"CH": "China", "CW": "British", "FR": "French", "US": "American", "GE": "German",
               "IT": "Italian", "JA": "Japanese", "RU": "Soviet"}


def variant_info() -> dict[str, Any]:
    """The shape of ``app.jsonapi.variant_info`` (powers only; no provinces)."""
    return {
        "name": VARIANT,
        "title": "Days of Decision III (GM aid)",
        "start_phase": "JF1936B",
        "victory_centres": None,
        "rules": {},
        "provinces": [],
        "powers": [
            {"id": power, "name": SHORT_NAMES[power], "adjective": _ADJECTIVES[power], "letter": LETTERS[power],
             "home": [], "ideology": IDEOLOGY_OF[power]}
            for power in POWERS
        ],
        "initial_track": list(INITIAL_TRACK),
    }
