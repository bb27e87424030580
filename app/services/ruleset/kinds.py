"""The rulesets a game can be played under, chosen by its variant name.

* ``diplomacy`` - every map variant (standard, Zeus 5, Small World...): orders on a map,
  adjudicated by the engine (``app.services.turns.map_turn``);
* ``dod3``      - Days of Decision III, a GM aid with no map: bids, move-downs, options and
  the GM's entries (``app.services.dod3``).

Callers ask ``ruleset_for(game.variant)`` instead of comparing variant names.  A ruleset is
what a door or a use case needs to know about a kind of game; processing its turns is
``app.services.turns.process.process_turn``, which dispatches on ``Ruleset.name``.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.dod3.variant import VARIANT as DOD3_VARIANT

__all__ = ["DIPLOMACY", "DOD3", "Ruleset", "ruleset_for"]


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

    def reply_subject(self, game: str, phase: str) -> str:
        """The subject of the judge's reply to a signed-on player's mail."""
        if self.has_map:
            return f"{self.mail_title} orders {game} {phase}"
        return f"{self.mail_title} {game} {phase}"


DIPLOMACY = Ruleset(name="diplomacy", has_map=True, order_lines=True, help_topics=("orders",),
                    mail_title="Diplomacy")
DOD3 = Ruleset(name="dod3", has_map=False, order_lines=False, help_topics=("dod3",), mail_title="DoD3")

_BY_VARIANT: dict[str, Ruleset] = {DOD3_VARIANT: DOD3}


def ruleset_for(variant_name: str | None) -> Ruleset:
    """The ruleset of a variant: DoD III for ``dod3``, map-based Diplomacy for every other."""
    return _BY_VARIANT.get((variant_name or "").lower(), DIPLOMACY)
