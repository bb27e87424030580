"""A variant's powers and provinces as the use cases read them (names, letters, centres,
borders), cached: variant data never change while the judge runs.

Map variants are read from the engine's ``Variant`` (``app.services.ruleset.engine``);
Days of Decision III has powers and no map (``app.dod3.variant``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from app.dod3.variant import VARIANT as DOD3_VARIANT
from app.dod3.variant import variant_info as dod3_variant_info
from app.services.ruleset import engine

__all__ = ["variant_data"]


@cache
def _load(name: str) -> dict[str, Any]:
    if name.lower() == DOD3_VARIANT:
        return dod3_variant_info()
    return engine.variant_description(name)


def variant_data(name: str) -> dict[str, Any]:
    """Powers (and, for map games, provinces) of the variant ``name``."""
    return _load(name)
