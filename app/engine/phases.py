"""Phase names (`S1901M`, `F1901R`, `W1901A`) and the order in which phases follow."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter"}
KIND_NAMES = {"M": "movement", "R": "retreats", "A": "adjustments"}
_PHASE = re.compile(r"^([SFW])(\d+)([MRA])$")


class PhaseKind(StrEnum):
    """The one word for the kind of a phase: its code's last letter (``S1901M``: movement).  Outside
    the engine every question "is this a retreat?" asks this (``PhaseKind.of(code)``), not the letter."""

    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"

    @classmethod
    def of(cls, code: str) -> PhaseKind:
        """The kind of phase ``code`` names (``F1901B``, the judges' name for the builds: adjustment;
        a code without a kind letter: movement)."""
        letter = code.strip()[-1:].upper()
        return cls.ADJUSTMENT if letter == "B" else _KINDS.get(letter, cls.MOVEMENT)

    @property
    def word(self) -> str:
        """``movement``, ``retreat``, ``adjustment`` (the phase timings' keys)."""
        return self.name.lower()


_KINDS = {kind.value: kind for kind in PhaseKind}


@dataclass(frozen=True, order=True)
class Phase:
    year: int
    season: str  # "S", "F" or "W"
    kind: PhaseKind
    digits: int = 4  # how many digits the variant writes the year with

    @classmethod
    def parse(cls, text: str) -> Phase:
        match = _PHASE.match(text.strip().upper())
        if not match:
            raise ValueError(f"not a phase: {text!r} (expected like S1901M, F1901R, W1901A)")
        season, year, kind = match.groups()
        if (season == "W") != (kind == "A"):
            raise ValueError(f"not a phase: {text!r} (adjustments happen in Winter only)")
        return cls(int(year), season, PhaseKind(kind), len(year))

    def __str__(self) -> str:
        return f"{self.season}{self.year:0{self.digits}d}{self.kind}"

    def describe(self) -> str:
        """'Spring 1901 movement', 'Spring 01 movement' for a two-digit calendar."""
        return f"{SEASON_NAMES[self.season]} {self.year:0{self.digits}d} {KIND_NAMES[self.kind]}"

    def with_(self, season: str, kind: str, year: int | None = None) -> Phase:
        return Phase(self.year if year is None else year, season, PhaseKind(kind), self.digits)

    @property
    def index(self) -> int:
        """Phases in playing order: S1901M < S1901R < F1901M < F1901R < W1901A < S1902M."""
        return self.year * 10 + "SFW".index(self.season) * 3 + "MRA".index(self.kind)

    def next_movement(self) -> Phase:
        if self.season == "S":
            return self.with_("F", "M")
        return self.with_("S", "M", self.year + 1)
