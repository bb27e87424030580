"""Order results that say why: each carries a typed outcome naming what decided it.

The resolver's own decisions become these values (resolve.py, movement.py,
retreats.py, adjustments.py); the short `reason` code and the English sentence
(`explain.py`) are derived from the outcome, never worked out a second time.
Provinces are engine ids (`BUR`); `by` names the province of the deciding unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, NamedTuple, Union

from .orders import Order

SUCCEEDS = "succeeds"
FAILS = "fails"
INVALID = "invalid"


class Reason:
    """Reason codes, kept short: the results mail and the dashboard show them."""

    OK: Final = "ok"
    BOUNCE: Final = "bounce"
    CUT: Final = "cut"
    DISLODGED: Final = "dislodged"
    NO_CONVOY: Final = "no_convoy"
    VOID: Final = "void"
    PARADOX: Final = "paradox"
    ILLEGAL: Final = "illegal"
    UNREADABLE: Final = "unreadable"
    DUPLICATE: Final = "duplicate"
    NO_ORDER: Final = "no_order"
    STANDOFF: Final = "standoff"  # retreats into the same province
    DISBANDED: Final = "disbanded"
    TOO_MANY: Final = "too_many"
    CIVIL_DISORDER: Final = "civil_disorder"
    LEAST_IMPACT: Final = "least_impact"  # an unordered removal chosen by the least-impact rule
    WAIVED: Final = "waived"
    DESTROYED: Final = "destroyed"


class _Kinded:
    """What every outcome has: `kind`, its class name in snake case (`NoConvoyRoute` ->
    "no_convoy_route"), the name the stored JSON and the templates use."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return _KINDS[type(self)]


# -- movement ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Held(_Kinded):
    """The unit held its province (a hold order, or none) and was not dislodged."""


@dataclass(frozen=True, slots=True)
class Moved(_Kinded):
    to: str  # the location moved to
    by_convoy: bool = False
    dislodged: str | None = None  # the province whose unit this move dislodged


@dataclass(frozen=True, slots=True)
class Bounced(_Kinded):
    """The move was stopped: by the unit holding the target (`against="hold"`), by the
    unit it met head to head (`"head_to_head"`) or by another move into the target
    (`"prevent"`). `attack` is this move's strength, `opposing` the hold, defend or
    prevent strength of `by` (DATC 5.B)."""

    by: str
    attack: int
    opposing: int
    against: str  # "hold", "head_to_head" or "prevent"


@dataclass(frozen=True, slots=True)
class OwnUnit(_Kinded):
    """The move could not dislodge a unit of its own power at the target (attack 0)."""

    unit: str  # the target province


@dataclass(frozen=True, slots=True)
class NoConvoyRoute(_Kinded):
    """An army moving by convoy, but no fleet was ordered to convoy it."""


@dataclass(frozen=True, slots=True)
class ConvoyDisrupted(_Kinded):
    """The convoy route broke: `fleets` of it were dislodged, `by` these attackers."""

    fleets: tuple[str, ...] = ()
    by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FleetStayed(_Kinded):
    """An A/F's army could not land from a sea its fleet did not reach."""


@dataclass(frozen=True, slots=True)
class Paradox(_Kinded):
    """A convoy paradox settled by a rule (DATC 4.A.2): the convoying fleets hold
    (`convoying=True` on a fleet's result) and the convoyed move fails."""

    rule: str = "szykman"
    convoying: bool = False


@dataclass(frozen=True, slots=True)
class Dislodged(_Kinded):
    """The unit was dislodged by the move from `by`, `attack` against its `hold`
    strength. `order` says what it was doing ("hold", "move", "support", "convoy");
    a move that also failed says why in `failed`."""

    by: str
    attack: int
    hold: int
    order: str = "hold"
    failed: Outcome | None = None


@dataclass(frozen=True, slots=True)
class SupportGiven(_Kinded):
    """SupportGiven"""


@dataclass(frozen=True, slots=True)
class SupportCut(_Kinded):
    by: tuple[str, ...]  # every unit that cut it, by province


@dataclass(frozen=True, slots=True)
class SupportVoid(_Kinded):
    """The supported unit did not do what the support names."""

    supported: str
    target: str | None = None  # the supported move's target; None for a hold support


@dataclass(frozen=True, slots=True)
class Convoyed(_Kinded):
    """Convoyed"""


@dataclass(frozen=True, slots=True)
class ConvoyVoid(_Kinded):
    """The convoyed army did not move where the convoy names."""

    army: str
    target: str


@dataclass(frozen=True, slots=True)
class Boarded(_Kinded):
    fleet: str


@dataclass(frozen=True, slots=True)
class Landed(_Kinded):
    at: str


@dataclass(frozen=True, slots=True)
class LandingFailed(_Kinded):
    """An A/F's army stays aboard: its fleet did not reach the sea `via`
    (`stage="sea"`), or the landing itself failed (`stage="land"`), for `cause`; or an
    army's Fast Ferry landing failed and its own fleet at `via` took it aboard, an A/F
    (`stage="ferry"`, Davis rule 2)."""

    stage: str
    cause: Outcome
    via: str | None = None


@dataclass(frozen=True, slots=True)
class ArmyStarved(_Kinded):
    """Army/Fleet rations: the A/F's army spent too long at sea and is lost; `then` is
    what its order did (the fleet stays)."""

    then: Outcome


# -- refused orders ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Unreadable(_Kinded):
    message: str


@dataclass(frozen=True, slots=True)
class Illegal(_Kinded):
    message: str


@dataclass(frozen=True, slots=True)
class Duplicate(_Kinded):
    """The unit was given different orders (DATC 4.D.3), so it holds."""


# -- retreats ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Retreated(_Kinded):
    to: str


@dataclass(frozen=True, slots=True)
class RetreatStandoff(_Kinded):
    """Several units retreated to one province: all are disbanded."""

    others: tuple[str, ...]  # the other units, as written ("A BUR")


@dataclass(frozen=True, slots=True)
class Disbanded(_Kinded):
    no_retreat: bool = False  # the unit had nowhere to go


# -- adjustments ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Built(_Kinded):
    unit: str


@dataclass(frozen=True, slots=True)
class Waived(_Kinded):
    """A build the power gave up: WAIVE, or a build left unordered."""


@dataclass(frozen=True, slots=True)
class Removed(_Kinded):
    unit: str


@dataclass(frozen=True, slots=True)
class TooMany(_Kinded):
    """No build or removal left: `owed` is the power's count (+ builds, - removals)."""

    owed: int
    builds: bool  # a build (or waive) rather than a removal


@dataclass(frozen=True, slots=True)
class SiteTaken(_Kinded):
    """SiteTaken"""


@dataclass(frozen=True, slots=True)
class AlreadyRemoved(_Kinded):
    """AlreadyRemoved"""


@dataclass(frozen=True, slots=True)
class CivilDisorderRemoval(_Kinded):
    """A removal the power did not order, chosen by the civil disorder rule (DATC 4.D.8)."""

    unit: str


@dataclass(frozen=True, slots=True)
class LeastImpactRemoval(_Kinded):
    """A removal the power did not order, chosen by the least-impact rule (Small World 11.3)."""

    unit: str


Outcome = Union[
    Held, Moved, Bounced, OwnUnit, NoConvoyRoute, ConvoyDisrupted, FleetStayed, Paradox, Dislodged,
    SupportGiven, SupportCut, SupportVoid, Convoyed, ConvoyVoid, Boarded, Landed, LandingFailed, ArmyStarved,
    Unreadable, Illegal, Duplicate, Retreated, RetreatStandoff, Disbanded,
    Built, Waived, Removed, TooMany, SiteTaken, AlreadyRemoved, CivilDisorderRemoval, LeastImpactRemoval,
]

OUTCOME_TYPES: dict[str, type[Outcome]] = {
    re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower(): cls
    for cls in (
        Held, Moved, Bounced, OwnUnit, NoConvoyRoute, ConvoyDisrupted, FleetStayed, Paradox, Dislodged,
        SupportGiven, SupportCut, SupportVoid, Convoyed, ConvoyVoid, Boarded, Landed, LandingFailed, ArmyStarved,
        Unreadable, Illegal, Duplicate, Retreated, RetreatStandoff, Disbanded,
        Built, Waived, Removed, TooMany, SiteTaken, AlreadyRemoved, CivilDisorderRemoval, LeastImpactRemoval,
    )
}
_KINDS: dict[type, str] = {cls: kind for kind, cls in OUTCOME_TYPES.items()}

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


@dataclass(slots=True)
class OrderEntry:
    """One order line of a phase: as written, as read (`parsed`), the legal order, and its
    result (read_orders in entries.py fills them in)."""

    power: str
    text: str
    order: Order | None = None  # the legal order
    result: OrderResult | None = None
    parsed: Order | None = None  # as written, legal or not
