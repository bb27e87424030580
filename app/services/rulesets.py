"""The rulesets a game can be played under, chosen by its variant name.

* ``diplomacy`` - every map variant (standard, Zeus 5, Small World...): orders on a map,
  adjudicated by the engine (``app.services.turns``);
* ``dod3``      - Days of Decision III, a GM aid with no map: bids, move-downs, options and
  the GM's entries (``app.services.dod3``).

Callers ask ``ruleset_for(game.variant)`` instead of comparing variant names. ``turns`` must
not import this module (it is the Diplomacy ruleset's turn processor).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy.orm import Session

from app.db.models import Game
from app.dod3.variant import VARIANT as DOD3_VARIANT
from app.dod3.variant import variant_info as dod3_variant_info
from app.services import dod3
from app.services import turns as diplomacy_turns
from app.services.context import Judge
from app.services.turns import TurnOutcome

__all__ = ["DIPLOMACY", "DOD3", "Ruleset", "TurnProcessor", "ruleset_for"]


class TurnProcessor(Protocol):
    def __call__(self, db: Session, judge: Judge, game: Game, *, expected_phase: str | None = None,
                 notes: Sequence[str] | None = None) -> TurnOutcome: ...


@dataclass(frozen=True)
class Ruleset:
    """How one kind of game is run.

    ``has_map``: units, orders and maps (order lines, PREVIEW, MAP, order readiness);
    ``order_lines``: a signed-on player's bare lines are orders (False: only commands);
    ``help_topics``: the HELP sections that apply (``orders`` for map games, ``dod3``);
    ``mail_title``: the word that starts the judge's mail subjects ("Diplomacy", "DoD3").
    """

    name: str
    has_map: bool
    order_lines: bool
    help_topics: tuple[str, ...]
    mail_title: str
    _process: TurnProcessor
    _info: Callable[[str], dict[str, Any]] | None

    def process_turn(self, db: Session, judge: Judge, game: Game, *, expected_phase: str | None = None,
                     notes: Sequence[str] | None = None) -> TurnOutcome:
        """Close the game's open phase or step (deadline, PROCESS, everyone ready) and open the next."""
        return self._process(db, judge, game, expected_phase=expected_phase, notes=notes)

    def variant_info(self, name: str, judge: Judge | None = None) -> dict[str, Any]:
        """Powers (and, for map games, provinces) of a variant: what ``Judge.variant_data`` caches.
        Map variants are read through the judge's engine API (``judge.api``)."""
        if self._info is not None:
            return self._info(name)
        if judge is None:
            raise ValueError(f"the variant data of '{name}' are read through the judge's engine API")
        loader = getattr(judge.api, "variant_map", None) or judge.api.variant_info
        return dict(loader(name))

    def reply_subject(self, game: str, phase: str) -> str:
        """The subject of the judge's reply to a signed-on player's mail."""
        if self.has_map:
            return f"{self.mail_title} orders {game} {phase}"
        return f"{self.mail_title} {game} {phase}"


def _diplomacy_turn(db: Session, judge: Judge, game: Game, *, expected_phase: str | None = None,
                    notes: Sequence[str] | None = None) -> TurnOutcome:
    """Map games: ``app.services.turns.process_turn`` (adjudicate, store, publish)."""
    return diplomacy_turns.process_turn(db, judge, game, expected_phase=expected_phase,
                                        notes=None if notes is None else list(notes))


def _dod3_info(name: str) -> dict[str, Any]:
    return dod3_variant_info()


DIPLOMACY = Ruleset(name="diplomacy", has_map=True, order_lines=True, help_topics=("orders",),
                    mail_title="Diplomacy", _process=_diplomacy_turn, _info=None)
DOD3 = Ruleset(name="dod3", has_map=False, order_lines=False, help_topics=("dod3",), mail_title="DoD3",
               _process=dod3.process_turn, _info=_dod3_info)

_BY_VARIANT: dict[str, Ruleset] = {DOD3_VARIANT: DOD3}


def ruleset_for(variant_name: str | None) -> Ruleset:
    """The ruleset of a variant: DoD III for ``dod3``, map-based Diplomacy for every other."""
    return _BY_VARIANT.get((variant_name or "").lower(), DIPLOMACY)
