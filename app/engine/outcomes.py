"""Order results that say why: each carries a typed outcome naming what decided it.

The resolver's own decisions become these values (resolve.py, movement.py,
retreats.py, adjustments.py); the short `reason` code and the English sentence
(`explain.py`) are derived from the outcome, never worked out a second time.
Provinces are engine ids (`BUR`); `by` names the province of the deciding unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple, Union

SUCCEEDS = "succeeds"
FAILS = "fails"
INVALID = "invalid"


class Reason:
    """Reason codes, kept short: the results mail and the dashboard show them."""

    OK = "ok"
    BOUNCE = "bounce"
    CUT = "cut"
    DISLODGED = "dislodged"
    NO_CONVOY = "no_convoy"
    VOID = "void"
    PARADOX = "paradox"
    ILLEGAL = "illegal"
    UNREADABLE = "unreadable"
    DUPLICATE = "duplicate"
    NO_ORDER = "no_order"
    STANDOFF = "standoff"  # retreats into the same province
    DISBANDED = "disbanded"
    TOO_MANY = "too_many"
    CIVIL_DISORDER = "civil_disorder"
    LEAST_IMPACT = "least_impact"  # an unordered removal chosen by the least-impact rule
    WAIVED = "waived"
    DESTROYED = "destroyed"


# -- movement ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Held:
    kind: ClassVar[str] = "held"


@dataclass(frozen=True, slots=True)
class Moved:
    kind: ClassVar[str] = "moved"
    to: str  # the location moved to
    by_convoy: bool = False
    dislodged: str | None = None  # the province whose unit this move dislodged


@dataclass(frozen=True, slots=True)
class Bounced:
    """The move was stopped: by the unit holding the target (`against="hold"`), by the
    unit it met head to head (`"head_to_head"`) or by another move into the target
    (`"prevent"`). `attack` is this move's strength, `opposing` the hold, defend or
    prevent strength of `by` (DATC 5.B)."""

    kind: ClassVar[str] = "bounced"
    by: str
    attack: int
    opposing: int
    against: str  # "hold", "head_to_head" or "prevent"


@dataclass(frozen=True, slots=True)
class OwnUnit:
    """The move could not dislodge a unit of its own power at the target (attack 0)."""

    kind: ClassVar[str] = "own_unit"
    unit: str  # the target province


@dataclass(frozen=True, slots=True)
class NoConvoyRoute:
    """An army moving by convoy, but no fleet was ordered to convoy it."""

    kind: ClassVar[str] = "no_convoy_route"


@dataclass(frozen=True, slots=True)
class ConvoyDisrupted:
    """The convoy route broke: `fleets` of it were dislodged, `by` these attackers."""

    kind: ClassVar[str] = "convoy_disrupted"
    fleets: tuple[str, ...] = ()
    by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FleetStayed:
    """An A/F's army could not land from a sea its fleet did not reach."""

    kind: ClassVar[str] = "fleet_stayed"


@dataclass(frozen=True, slots=True)
class Paradox:
    """A convoy paradox settled by a rule (DATC 4.A.2): the convoying fleets hold
    (`convoying=True` on a fleet's result) and the convoyed move fails."""

    kind: ClassVar[str] = "paradox"
    rule: str = "szykman"
    convoying: bool = False


@dataclass(frozen=True, slots=True)
class Dislodged:
    """The unit was dislodged by the move from `by`, `attack` against its `hold`
    strength. `order` says what it was doing ("hold", "move", "support", "convoy");
    a move that also failed says why in `failed`."""

    kind: ClassVar[str] = "dislodged"
    by: str
    attack: int
    hold: int
    order: str = "hold"
    failed: Outcome | None = None


@dataclass(frozen=True, slots=True)
class SupportGiven:
    kind: ClassVar[str] = "support_given"


@dataclass(frozen=True, slots=True)
class SupportCut:
    kind: ClassVar[str] = "support_cut"
    by: tuple[str, ...]  # every unit that cut it, by province


@dataclass(frozen=True, slots=True)
class SupportVoid:
    """The supported unit did not do what the support names."""

    kind: ClassVar[str] = "support_void"
    supported: str
    target: str | None = None  # the supported move's target; None for a hold support


@dataclass(frozen=True, slots=True)
class Convoyed:
    kind: ClassVar[str] = "convoyed"


@dataclass(frozen=True, slots=True)
class ConvoyVoid:
    """The convoyed army did not move where the convoy names."""

    kind: ClassVar[str] = "convoy_void"
    army: str
    target: str


@dataclass(frozen=True, slots=True)
class Boarded:
    kind: ClassVar[str] = "boarded"
    fleet: str


@dataclass(frozen=True, slots=True)
class Landed:
    kind: ClassVar[str] = "landed"
    at: str


@dataclass(frozen=True, slots=True)
class LandingFailed:
    """An A/F's army stays aboard: its fleet did not reach the sea `via`
    (`stage="sea"`), or the landing itself failed (`stage="land"`), for `cause`."""

    kind: ClassVar[str] = "landing_failed"
    stage: str
    cause: Outcome
    via: str | None = None


@dataclass(frozen=True, slots=True)
class ArmyStarved:
    """Army/Fleet rations: the A/F's army spent too long at sea and is lost; `then` is
    what its order did (the fleet stays)."""

    kind: ClassVar[str] = "army_starved"
    then: Outcome


# -- refused orders ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Unreadable:
    kind: ClassVar[str] = "unreadable"
    message: str


@dataclass(frozen=True, slots=True)
class Illegal:
    kind: ClassVar[str] = "illegal"
    message: str


@dataclass(frozen=True, slots=True)
class Duplicate:
    """The unit was given different orders (DATC 4.D.3), so it holds."""

    kind: ClassVar[str] = "duplicate"


# -- retreats ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Retreated:
    kind: ClassVar[str] = "retreated"
    to: str


@dataclass(frozen=True, slots=True)
class RetreatStandoff:
    """Several units retreated to one province: all are disbanded."""

    kind: ClassVar[str] = "retreat_standoff"
    others: tuple[str, ...]  # the other units, as written ("A BUR")


@dataclass(frozen=True, slots=True)
class Disbanded:
    kind: ClassVar[str] = "disbanded"
    no_retreat: bool = False  # the unit had nowhere to go


# -- adjustments ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Built:
    kind: ClassVar[str] = "built"
    unit: str


@dataclass(frozen=True, slots=True)
class Waived:
    kind: ClassVar[str] = "waived"


@dataclass(frozen=True, slots=True)
class Removed:
    kind: ClassVar[str] = "removed"
    unit: str


@dataclass(frozen=True, slots=True)
class TooMany:
    """No build or removal left: `owed` is the power's count (+ builds, - removals)."""

    kind: ClassVar[str] = "too_many"
    owed: int
    builds: bool  # a build (or waive) rather than a removal


@dataclass(frozen=True, slots=True)
class SiteTaken:
    kind: ClassVar[str] = "site_taken"


@dataclass(frozen=True, slots=True)
class AlreadyRemoved:
    kind: ClassVar[str] = "already_removed"


@dataclass(frozen=True, slots=True)
class CivilDisorderRemoval:
    """A removal the power did not order, chosen by the civil disorder rule (DATC 4.D.8)."""

    kind: ClassVar[str] = "civil_disorder_removal"
    unit: str


@dataclass(frozen=True, slots=True)
class LeastImpactRemoval:
    """A removal the power did not order, chosen by the least-impact rule (Small World 11.3)."""

    kind: ClassVar[str] = "least_impact_removal"
    unit: str


Outcome = Union[
    Held, Moved, Bounced, OwnUnit, NoConvoyRoute, ConvoyDisrupted, FleetStayed, Paradox, Dislodged,
    SupportGiven, SupportCut, SupportVoid, Convoyed, ConvoyVoid, Boarded, Landed, LandingFailed, ArmyStarved,
    Unreadable, Illegal, Duplicate, Retreated, RetreatStandoff, Disbanded,
    Built, Waived, Removed, TooMany, SiteTaken, AlreadyRemoved, CivilDisorderRemoval, LeastImpactRemoval,
]

OUTCOME_TYPES: dict[str, type[Outcome]] = {
    cls.kind: cls
    for cls in (
        Held, Moved, Bounced, OwnUnit, NoConvoyRoute, ConvoyDisrupted, FleetStayed, Paradox, Dislodged,
        SupportGiven, SupportCut, SupportVoid, Convoyed, ConvoyVoid, Boarded, Landed, LandingFailed, ArmyStarved,
        Unreadable, Illegal, Duplicate, Retreated, RetreatStandoff, Disbanded,
        Built, Waived, Removed, TooMany, SiteTaken, AlreadyRemoved, CivilDisorderRemoval, LeastImpactRemoval,
    )
}

_VERDICTS: dict[str, tuple[str, str]] = {
    "held": (SUCCEEDS, Reason.OK),
    "moved": (SUCCEEDS, Reason.OK),
    "bounced": (FAILS, Reason.BOUNCE),
    "own_unit": (FAILS, Reason.BOUNCE),
    "no_convoy_route": (FAILS, Reason.NO_CONVOY),
    "convoy_disrupted": (FAILS, Reason.NO_CONVOY),
    "fleet_stayed": (FAILS, Reason.BOUNCE),
    "paradox": (FAILS, Reason.PARADOX),
    "dislodged": (FAILS, Reason.DISLODGED),
    "support_given": (SUCCEEDS, Reason.OK),
    "support_cut": (FAILS, Reason.CUT),
    "support_void": (FAILS, Reason.VOID),
    "convoyed": (SUCCEEDS, Reason.OK),
    "convoy_void": (FAILS, Reason.VOID),
    "boarded": (SUCCEEDS, Reason.OK),
    "landed": (SUCCEEDS, Reason.OK),
    "unreadable": (INVALID, Reason.UNREADABLE),
    "illegal": (INVALID, Reason.ILLEGAL),
    "duplicate": (INVALID, Reason.DUPLICATE),
    "retreated": (SUCCEEDS, Reason.OK),
    "retreat_standoff": (FAILS, Reason.STANDOFF),
    "disbanded": (SUCCEEDS, Reason.DISBANDED),
    "built": (SUCCEEDS, Reason.OK),
    "waived": (SUCCEEDS, Reason.WAIVED),
    "removed": (SUCCEEDS, Reason.OK),
    "too_many": (FAILS, Reason.TOO_MANY),
    "site_taken": (FAILS, Reason.TOO_MANY),
    "already_removed": (FAILS, Reason.TOO_MANY),
    "civil_disorder_removal": (SUCCEEDS, Reason.CIVIL_DISORDER),
    "least_impact_removal": (SUCCEEDS, Reason.LEAST_IMPACT),
}


def verdict(outcome: Outcome) -> tuple[str, str]:
    """(result, reason code) of an outcome: `("fails", "bounce")`."""
    known = _VERDICTS.get(outcome.kind)
    if known is not None:
        return known
    if isinstance(outcome, LandingFailed):
        return FAILS, Reason.BOUNCE if outcome.stage == "sea" else verdict(outcome.cause)[1]
    if isinstance(outcome, ArmyStarved):
        return verdict(outcome.then)
    raise KeyError(outcome.kind)


class OrderResult(NamedTuple):
    """One order's result (an immutable record; a NamedTuple, as thousands are made per
    second by `judge adjudicate`)."""

    power: str
    text: str  # the order as written (or the default order the judge applied)
    order: str | None  # the order as the judge understood it, in short form
    result: str  # SUCCEEDS | FAILS | INVALID
    reason: str
    explanation: str
    default: bool = False  # an order the judge supplied for a unit without one
    dislodged_by: str | None = None  # province the dislodging attack came from
    outcome: Outcome | None = None  # what decided it (None only for results stored before outcomes)
