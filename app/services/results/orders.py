"""One order of the results as the judges print it: ``Army Paris -> Burgundy.  (*bounce*)``.

The wording comes from the order (``describe_order``) and from the engine's typed
``outcome`` of its result (``annotation``, ``default_note``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from app.services.ruleset.engine import (
    Board,
    Build,
    Convoy,
    Disband,
    Hold,
    Land,
    Move,
    Order,
    Outcome,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    outcomes,
    province_of,
)
from app.services.ruleset.powers import PowerBook
from app.services.ruleset.stored import StoredOrder, StoredState

__all__ = ["UNIT_WORDS", "annotation", "default_note", "describe_order", "units_by_province"]

UNIT_WORDS = {"A": "Army", "F": "Fleet", "AF": "A/F"}
_THE_UNIT = {"A": "the army", "F": "the fleet", "AF": "the A/F"}
_A_UNIT = {"A": "an army", "F": "a fleet", "AF": "an A/F"}
SUCCESS = {"", "succeeds", "success", "ok", "resolved", "moves", "holds", "true", "none", "valid"}

Namer = Callable[[str], str]


def units_by_province(state: StoredState) -> dict[str, tuple[str, str]]:
    """``{"PAR": ("FRANCE", "A")}`` from a stored position (an A/F's type is ``AF``)."""
    where: dict[str, tuple[str, str]] = {}
    for power, units in state.units.items():
        for unit in units:
            utype, _, loc = unit.partition(" ")
            where[loc.split("/")[0].upper()] = (power, "AF" if utype.upper() == "A/F" else utype)
    return where


def _owner(location: str, units_at: dict[str, tuple[str, str]]) -> str:
    return units_at.get(province_of(location), ("", ""))[0].upper()


def _unit_text(unit: Unit, names: Namer) -> str:
    return f"{UNIT_WORDS.get(unit.type, unit.type)} {names(unit.location)}"


def _supported(province: str, verb: str, units_at: dict[str, tuple[str, str]], book: PowerBook,
               names: Namer, mine: str) -> str:
    """The supported or convoyed unit; njudge names its owner only when it is another power's:
    ``SUPPORT Army Rumania``, ``SUPPORT German Army Ruhr``."""
    power, utype = units_at.get(province_of(province), ("", "A" if verb == "C" else ""))
    owner = f"{book.adjective(power)} " if power and power.upper() != mine else ""
    return f"{owner}{UNIT_WORDS.get(utype, 'unit')} {names(province)}".strip()


def _adjustment(order: Build | Remove, place: Namer, public: Mapping[str, str] | None, default: bool) -> str:
    shown = (public or {}).get(str(order.unit), str(order.unit))
    location = shown.partition(" ")[2] or order.unit.location
    if isinstance(order, Remove):
        piece = _THE_UNIT.get(order.unit.type, "the unit")
        if default:  # njudge: "Defaults, removing the fleet in the Black Sea."
            return f"Defaults, removing {piece} in {place(location)}"
        return f"Removes {piece} in {place(location)}"
    return f"Builds {_A_UNIT.get(order.unit.type, 'a unit')} in {place(location)}"


def describe_order(order: Order, names: Namer, units_at: dict[str, tuple[str, str]], book: PowerBook,
                   public: Mapping[str, str] | None = None, *, place: Namer | None = None,
                   default: bool = False, path: Sequence[str] = ()) -> str:
    """``A PAR - BUR`` -> ``Army Paris -> Burgundy``; supports name the supported unit in full.
    ``public`` maps a build whose site is secret (``F CAL``) to what others see (``F NYK/CAL``);
    ``place`` names a province after "in" (``the North Sea``); ``default``: the judge gave the order
    (a unit nobody ordered: njudge's ``Army Venice, No Order Processed``); ``path``: the fleets
    that convoy a move, in order (``Army London -> North Sea -> Belgium``)."""
    if isinstance(order, Waive):
        return "Build waived"
    if isinstance(order, (Build, Remove)):
        return _adjustment(order, place or names, public, default)
    unit = _unit_text(order.unit, names)
    mine = _owner(order.unit.location, units_at)
    if isinstance(order, Hold):
        return f"{unit}, No Order Processed" if default else f"{unit} HOLD"
    if isinstance(order, Disband):
        return f"{unit} DISBAND"
    if isinstance(order, Move) and path:
        return f"{unit} -> " + " -> ".join(names(w) for w in (*path, order.target))
    if isinstance(order, (Move, Retreat)):
        return f"{unit} -> {names(order.target)}"
    if isinstance(order, Land):
        return f"{unit} -> " + " -> ".join(names(w) for w in (order.via, order.target) if w)
    if isinstance(order, Board):
        return f"{unit} BOARDS Fleet {names(order.fleet)}"
    if isinstance(order, SupportHold):
        return f"{unit} SUPPORT {_supported(order.supported, 'S', units_at, book, names, mine)}"
    if isinstance(order, SupportMove):
        return (f"{unit} SUPPORT {_supported(order.supported, 'S', units_at, book, names, mine)} "
                f"-> {names(order.target)}")
    if isinstance(order, Convoy):
        return f"{unit} CONVOY {_supported(order.army, 'C', units_at, book, names, mine)} -> {names(order.target)}"
    return str(order)


REASON_WORDS = {
    "bounce": "bounce", "standoff": "bounce", "cut": "cut", "dislodged": "dislodged", "no_convoy": "no convoy",
    "disrupted": "disrupted", "void": "void", "illegal": "void", "unreadable": "void", "duplicate": "void",
    "paradox": "void", "destroyed": "destroyed", "no_support": "no support", "ruling": "GM ruling",
    "too_many": "void",
}


# what a dislodged unit's own order did (``Dislodged.failed``): njudge's ``(*bounce, dislodged*)``
FAILED_WORDS = {
    "bounced": "bounce", "own_unit": "bounce", "fleet_stayed": "bounce", "no_convoy_route": "no convoy",
    "convoy_disrupted": "disrupted", "support_cut": "cut", "support_void": "void", "convoy_void": "void",
    "paradox": "void",
}


def _outcome_words(outcome: Outcome) -> tuple[str | None, list[str]]:
    """What the typed outcome adds to the judges' words: a word that replaces the reason's
    (a build or removal that failed), and notes said after it."""
    if isinstance(outcome, outcomes.TooMany):
        return ("too many builds" if outcome.builds else "too many removals"), []
    if isinstance(outcome, outcomes.SiteTaken):
        return "site already used", []
    if isinstance(outcome, outcomes.AlreadyRemoved):
        return "already removed", []
    if isinstance(outcome, outcomes.RetreatStandoff):  # the judges: "(*bounce, destroyed*)"
        return None, ["destroyed"]
    if isinstance(outcome, outcomes.LandingFailed):
        return None, ["the army stays aboard"]
    if isinstance(outcome, outcomes.Dislodged):
        word = FAILED_WORDS.get(outcome.failed.kind) if outcome.failed is not None else None
        return word or "dislodged", []
    if isinstance(outcome, outcomes.ArmyStarved):
        word, notes = _outcome_words(outcome.then)
        return word, [*notes, "army lost at sea"]
    return None, []


def annotation(entry: StoredOrder, *, also_dislodged: bool = False) -> str:
    """The judges' ``(*bounce*)``, ``(*cut, dislodged*)``... for one order result; ``also_dislodged``:
    the unit was dislodged all the same (a void order's unit, dislodged as it held)."""
    result = entry.result.strip().lower()
    reason = entry.reason.strip().lower()
    replaced, extra = _outcome_words(entry.outcome) if entry.outcome is not None else (None, [])
    notes: list[str] = []
    if result not in SUCCESS:
        word = replaced or REASON_WORDS.get(reason)
        if word is None and result not in ("fails", "invalid"):
            word = result.replace("_", " ")
        if word is None and result == "invalid":
            word = "void"
        if word:
            notes.append(word)
    if (isinstance(entry.outcome, outcomes.Dislodged) or entry.dislodged_by or also_dislodged) \
            and "dislodged" not in notes:
        notes.append("dislodged")
    notes.extend(extra)
    return f"  (*{', '.join(notes)}*)" if notes else ""


def default_note(entry: StoredOrder, order: Order | None) -> str:
    """Why the judge chose an order nobody gave, when a rule chose it: ``  (least-impact rule)``."""
    if isinstance(entry.outcome, outcomes.LeastImpactRemoval):
        return "  (least-impact rule)"
    if entry.default and isinstance(order, Retreat):
        return "  (no retreat ordered: Right-Hand Rule)"
    return ""
