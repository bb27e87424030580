"""Phase codes (S1901M, F1901R, W1901A) and the words the judges use for them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.engine.phases import PhaseKind

__all__ = ["PhaseKind", "PhaseName", "parse_phase_words"]

SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter", "U": "Summer", "A": "Autumn"}


@dataclass(frozen=True)
class PhaseName:
    code: str

    @property
    def season(self) -> str:
        return SEASONS.get(self.code[:1].upper(), self.code[:1])

    @property
    def year(self) -> str:
        return self.code[1:-1]

    @property
    def kind(self) -> PhaseKind:
        return PhaseKind.of(self.code)

    @property
    def results_title(self) -> str:
        """``Movement results for Spring of 1901.``"""
        if self.kind is PhaseKind.MOVEMENT:
            return f"Movement results for {self.season} of {self.year}."
        return f"{self.kind.word.title()} orders for {self.season} of {self.year}."

    @property
    def next_words(self) -> str:
        """``Movement for Fall of 1902`` as in "The next phase ... will be ..."."""
        word = {PhaseKind.MOVEMENT: "Movement", PhaseKind.RETREAT: "Retreats",
                PhaseKind.ADJUSTMENT: "Adjustments"}[self.kind]
        return f"{word} for {self.season} of {self.year}"


_CODE = re.compile(r"^[A-Z][0-9]{4,10}[A-Z]$")  # at most 12 characters: a phase code's column (orders.phase)


def parse_phase_words(text: str) -> str | None:
    """Accept ``S1901M``, ``Spring 1901 Movement``, ``F 1901 R`` and similar; return the code
    (a letter, a year of 4 to 10 digits, a letter), or None.  ``F1901B`` (njudge's and DPjudge's
    name for the Winter adjustments, in their Mapper header) and ``Fall 1901 Builds`` are W1901A: a phase
    has one name in everything the judge writes (W1901A), and the other is read on input (issue 28.15)."""
    words = text.upper().replace(",", " ").split()
    code = None
    if len(words) == 1:
        code = words[0]
        if len(code) >= 6 and code[1:-1].isdigit() and code[0] == "F" and code[-1] == "B":
            code = f"W{code[1:-1]}A"  # F1902B: the judges' name for it
    elif len(words) == 3 and words[1].isdigit():
        season, year, kind = words
        if kind[0] in "AB" and season[0] in "FW":  # Fall 1902 Builds, Winter 1902 Adjustments
            code = f"W{year}A"
        else:
            code = f"{season[0]}{year}{kind[0]}"
    return code if code is not None and _CODE.match(code) else None
