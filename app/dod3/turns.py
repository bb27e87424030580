"""The game calendar (two-month turns, Jan/Feb 1936 to Nov/Dec 1946) and the
sequence of play of rule 5 (steps A to I)."""

from __future__ import annotations

from enum import Enum

__all__ = [
    "Phase",
    "PHASES",
    "PHASE_TITLES",
    "FIRST_YEAR",
    "LAST_YEAR",
    "TURN_COUNT",
    "MONTH_PAIRS",
    "turn_label",
    "turn_key",
    "turn_year",
    "turn_index",
    "is_first_turn",
    "is_last_turn",
    "phases_of_turn",
    "next_step",
]

FIRST_YEAR = 1936
LAST_YEAR = 1946
MONTH_PAIRS = ("Jan/Feb", "Mar/Apr", "May/Jun", "Jul/Aug", "Sep/Oct", "Nov/Dec")
TURN_COUNT = (LAST_YEAR - FIRST_YEAR + 1) * len(MONTH_PAIRS)  # 66 turns


class Phase(str, Enum):
    """Rule 5's sequence of play."""

    INITIATIVE = "A"
    WEATHER = "B"
    POLITICAL_AFFAIRS = "C"
    BONUS_BID_POINTS = "D"
    MILITARY_AFFAIRS = "E"
    PRODUCTION = "F"
    US_ENTRY = "G"
    CONQUEST = "H"
    END_OF_TURN = "I"


PHASES: tuple[Phase, ...] = tuple(Phase)

PHASE_TITLES: dict[Phase, str] = {
    Phase.INITIATIVE: "Initiative",
    Phase.WEATHER: "Weather",
    Phase.POLITICAL_AFFAIRS: "Political Affairs",
    Phase.BONUS_BID_POINTS: "Bonus Bid Points",
    Phase.MILITARY_AFFAIRS: "Military Affairs",
    Phase.PRODUCTION: "Production",
    Phase.US_ENTRY: "US Entry",
    Phase.CONQUEST: "Conquest",
    Phase.END_OF_TURN: "End of Turn",
}


def turn_label(index: int) -> str:
    """0 -> "Jan/Feb 1936", 65 -> "Nov/Dec 1946". Turns past 1946 (Bitter end) continue the calendar."""
    if index < 0:
        raise ValueError("turns count from 0 (Jan/Feb 1936)")
    year, pair = divmod(index, len(MONTH_PAIRS))
    return f"{MONTH_PAIRS[pair]} {FIRST_YEAR + year}"


def turn_key(index: int) -> str:
    """The turn as used in dice messages (no '/'): 0 -> "Jan-Feb 1936"."""
    return turn_label(index).replace("/", "-")


def turn_year(index: int) -> int:
    """The year, for the year columns of the war, treaty and US entry charts."""
    if index < 0:
        raise ValueError("turns count from 0 (Jan/Feb 1936)")
    return FIRST_YEAR + index // len(MONTH_PAIRS)


def turn_index(label: str) -> int:
    """ "Jul/Aug 1945" -> 57."""
    try:
        months, year_text = label.strip().rsplit(" ", 1)
        pair = [m.lower() for m in MONTH_PAIRS].index(months.strip().lower())
        year = int(year_text)
    except ValueError:
        raise ValueError(f"not a turn: {label!r} (write e.g. Jul/Aug 1945)") from None
    if year < FIRST_YEAR:
        raise ValueError(f"the game starts in Jan/Feb {FIRST_YEAR}")
    return (year - FIRST_YEAR) * len(MONTH_PAIRS) + pair


def is_first_turn(index: int) -> bool:
    return index == 0


def is_last_turn(index: int, bitter_end: bool = False) -> bool:
    """The Nov/Dec 1946 turn ends the standard game; with Bitter end there is no last turn."""
    return not bitter_end and index == TURN_COUNT - 1


def phases_of_turn(index: int) -> tuple[Phase, ...]:
    """Step A (initiative) is skipped on the first turn."""
    if is_first_turn(index):
        return PHASES[1:]
    return PHASES


def next_step(index: int, phase: Phase) -> tuple[int, Phase]:
    """The step after (turn, phase); after I comes the next turn's first step.
    Whether the game ended in step I is for the caller (victory.game_end_reasons)."""
    phases = phases_of_turn(index)
    position = phases.index(Phase(phase))
    if position + 1 < len(phases):
        return index, phases[position + 1]
    following = index + 1
    return following, phases_of_turn(following)[0]
