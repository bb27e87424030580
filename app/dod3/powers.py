"""The eight major powers, their ideologies and the rule 3.1 groupings.

Codes follow the rulebook's abbreviations: CH (Nationalist China), CW
(Commonwealth), FR (France), US (USA), GE (Germany), IT (Italy), JA (Japan)
and RU (the Soviet Union, which always includes the Communist Chinese, CC).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

__all__ = [
    "POWERS",
    "POWER_NAMES",
    "DEMOCRATS",
    "FASCISTS",
    "COMMUNISTS",
    "IDEOLOGIES",
    "IDEOLOGY_OF",
    "INITIAL_TRACK",
    "HOME_CAPITALS",
    "DEFAULT_OBJECTIVES_NEEDED",
    "HISTORICAL_HIGH_POINT",
    "GROUPING_PRESETS",
    "grouping_preset",
    "ideology_members",
    "normalise_power",
    "normalise_powers",
]

POWERS: tuple[str, ...] = ("CH", "CW", "FR", "US", "GE", "IT", "JA", "RU")

POWER_NAMES: dict[str, str] = {
    "CH": "Nationalist China",
    "CW": "Commonwealth",
    "FR": "France",
    "US": "USA",
    "GE": "Germany",
    "IT": "Italy",
    "JA": "Japan",
    "RU": "Soviet Union (with the Communist Chinese)",
}

DEMOCRATS = "Democrats"
FASCISTS = "Fascists"
COMMUNISTS = "Communists"

# Rule 3.1. The standard game never lets a major power leave its ideology.
IDEOLOGIES: dict[str, tuple[str, ...]] = {
    DEMOCRATS: ("CH", "CW", "FR", "US"),
    FASCISTS: ("GE", "IT", "JA"),
    COMMUNISTS: ("RU",),
}
IDEOLOGY_OF: dict[str, str] = {power: ideology for ideology, members in IDEOLOGIES.items() for power in members}

# Rule 3.2: "Germany, Italy, Commonwealth, France, the Soviet Union, Japan, USA and China".
INITIAL_TRACK: tuple[str, ...] = ("GE", "IT", "CW", "FR", "RU", "JA", "US", "CH")

# Home capitals, for crediting objectives in neutral minors (rule 4). The GM
# enters the distances; these names are only for reports.
HOME_CAPITALS: dict[str, str] = {
    "CH": "Chungking",
    "CW": "London",
    "FR": "Paris",
    "US": "Washington",
    "GE": "Berlin",
    "IT": "Rome",
    "JA": "Tokyo",
    "RU": "Moscow",
}

# Rule 4's "Total Needed" chart survives only in part in the draft: China 3,
# France 7, Italy 8 are printed; the Jul/Aug 1945 example implies CW 23,
# USA 17 (France+CW need 30, USA+China need 20, the Democrats 50) and
# USSR & CC 17. Germany and Japan are not printed: the GM must enter them.
DEFAULT_OBJECTIVES_NEEDED: dict[str, Fraction | None] = {
    "CH": Fraction(3),
    "CW": Fraction(23),
    "FR": Fraction(7),
    "US": Fraction(17),
    "GE": None,
    "IT": Fraction(8),
    "JA": None,
    "RU": Fraction(17),
}

# The chart's "Historical high point" column, where the draft prints it.
HISTORICAL_HIGH_POINT: dict[str, Fraction] = {
    "CH": Fraction(2),
    "FR": Fraction(7),
    "IT": Fraction(6),
}

_ALIASES: dict[str, str] = {
    "CH": "CH", "CHINA": "CH", "NATIONALIST CHINA": "CH", "NAT CHINA": "CH", "NATCHINA": "CH",
    "CW": "CW", "COMMONWEALTH": "CW", "THE COMMONWEALTH": "CW", "UK": "CW", "BRITAIN": "CW",
    "FR": "FR", "FRANCE": "FR",
    "US": "US", "USA": "US", "THE USA": "US", "UNITED STATES": "US",
    "GE": "GE", "GERMANY": "GE",
    "IT": "IT", "ITALY": "IT",
    "JA": "JA", "JAPAN": "JA",
    "RU": "RU", "USSR": "RU", "SOVIET UNION": "RU", "THE SOVIET UNION": "RU", "SOVIETS": "RU",
    "SU": "RU", "RUSSIA": "RU",
}


def normalise_power(name: str) -> str:
    """Map a power's code or name (any case) to its code; ValueError if unknown."""
    if not isinstance(name, str):
        raise ValueError(f"not a major power: {name!r}")
    key = " ".join(name.replace(".", " ").replace("_", " ").split()).upper()
    try:
        return _ALIASES[key]
    except KeyError:
        raise ValueError(f"not a major power: {name!r} (use one of {', '.join(POWERS)})") from None


def normalise_powers(names: Iterable[str]) -> tuple[str, ...]:
    result = tuple(normalise_power(name) for name in names)
    if len(set(result)) != len(result):
        raise ValueError(f"a major power is listed twice: {list(names)}")
    return result


# Rule 3.1's recommended groupings, one tuple of powers per player.
GROUPING_PRESETS: dict[str, tuple[tuple[str, ...], ...]] = {
    "3": (("GE", "JA", "IT"), ("CW", "FR", "CH", "US"), ("RU",)),
    "4a": (("GE",), ("JA", "IT"), ("CW", "FR", "CH", "US"), ("RU",)),
    "4b": (("GE", "JA", "IT"), ("CW", "FR"), ("CH", "US"), ("RU",)),
    "5": (("GE",), ("JA", "IT"), ("CW", "FR"), ("CH", "US"), ("RU",)),
    "6a": (("GE",), ("JA", "IT"), ("CW",), ("FR",), ("CH", "US"), ("RU",)),
    "6b": (("GE",), ("JA",), ("IT",), ("CW", "FR"), ("CH", "US"), ("RU",)),
    "6c": (("GE",), ("JA",), ("IT",), ("CW", "CH"), ("FR", "US"), ("RU",)),
    "7": (("GE",), ("JA",), ("IT",), ("CW", "CH"), ("FR",), ("US",), ("RU",)),
    "8": tuple((power,) for power in INITIAL_TRACK),
}


def grouping_preset(name: str, *, soviet_with: str | None = None) -> tuple[tuple[str, ...], ...]:
    """The powers of each player for a rule 3.1 grouping ("3", "4a", ..., "8").

    The draft's 2-player line lists three groups (the Fascists, the
    Democracies, and the Soviet Union with the Communist Chinese) without
    saying who plays the Soviets, so for "2" the GM must say:
    soviet_with="fascists" or "democrats".
    """
    key = str(name).strip().lower()
    if key == "2":
        fascists, democrats = ("GE", "JA", "IT"), ("US", "CH", "CW", "FR")
        if soviet_with is None:
            raise ValueError('the 2-player grouping needs soviet_with="fascists" or "democrats"')
        side = soviet_with.strip().lower()
        if side in ("fascists", "fascist", "axis"):
            return (fascists + ("RU",), democrats)
        if side in ("democrats", "democrat", "democracies", "allies"):
            return (fascists, democrats + ("RU",))
        raise ValueError(f"soviet_with must be 'fascists' or 'democrats', not {soviet_with!r}")
    try:
        return GROUPING_PRESETS[key]
    except KeyError:
        raise ValueError(f"unknown grouping {name!r}; use 2, {', '.join(GROUPING_PRESETS)}") from None


def ideology_members(ideologies: Mapping[str, Iterable[str]] | None = None) -> dict[str, tuple[str, ...]]:
    """Normalise an ideology membership mapping (defaults to rule 3.1)."""
    if ideologies is None:
        return dict(IDEOLOGIES)
    result: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()
    for ideology, members in ideologies.items():
        codes = normalise_powers(members)
        clash = seen.intersection(codes)
        if clash:
            raise ValueError(f"{', '.join(sorted(clash))} belongs to two ideologies")
        seen.update(codes)
        result[str(ideology)] = codes
    return result
