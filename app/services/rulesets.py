"""MINIMAL STUB (helper "turns"): the ruleset of a game's variant, so that callers dispatch turn
processing without ``if game.variant == "dod3"``.  Helper "dod3" owns this module and replaces it
with the full registry; only ``ruleset_for(variant).process_turn`` and ``.has_map`` are relied on here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy.orm import Session

from app.db.models import Game
from app.services import dod3, turns
from app.services.context import Judge

__all__ = ["Ruleset", "ruleset_for"]


class ProcessTurn(Protocol):
    def __call__(self, db: Session, judge: Judge, game: Game, *, expected_phase: str | None = None,
                 notes: Sequence[str] | None = None) -> turns.TurnOutcome: ...


@dataclass(frozen=True)
class Ruleset:
    name: str
    has_map: bool  # units, orders and maps: PREVIEW and overrides apply
    process_turn: ProcessTurn


DIPLOMACY = Ruleset("diplomacy", True, turns.process_turn)
DOD3 = Ruleset("dod3", False, dod3.process_turn)  # type: ignore[arg-type]


def ruleset_for(variant: str) -> Ruleset:
    return DOD3 if variant == "dod3" else DIPLOMACY
