"""The variants the judge offers: the dashboard's new-game form (``offered_variants``) and the
HELP section of a game's variant (``variant_help``).

Map variants declare both in their own folder (``variants/<name>/variant.toml``: ``[offer]``,
``[setups.<key>.offer]``, ``help``; variants/README.md), read by the variant registry behind the
engine port; no code here names one. Days of Decision III, which has no map folder, is offered
after them.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.dod3.variant import VARIANT as DOD3_VARIANT
from app.services.ruleset import engine

__all__ = ["DOD3_OFFER", "VariantOffer", "offered_variants", "variant_help"]


@dataclass(frozen=True)
class VariantOffer:
    """One choice of the new-game form: the variant name a game is created with, its title and
    a line saying what it is."""

    name: str
    title: str
    description: str


DOD3_OFFER = VariantOffer(DOD3_VARIANT, "Days of Decision III",
                          "A GM aid for the Australian Design Group's game: bids, options and dice, no map.")


def offered_variants() -> tuple[VariantOffer, ...]:
    """What the new-game form offers, in ``judge variant list`` order, then Days of Decision III:
    every map variant name whose folder does not say ``offered = false``."""
    maps = (VariantOffer(entry.name, entry.offer.title, entry.offer.description) for entry in engine.offered())
    return (*maps, DOD3_OFFER)


def variant_help(variant: str | None) -> str | None:
    """The HELP section for the players of a game of ``variant``, as its folder declares it
    (None: none beyond the commands, or not a map variant)."""
    return engine.help_section(variant) if variant else None
