"""What decided each order of a movement phase, read from the settled decisions.

Every outcome comes from the resolver's own decision functions (`move_verdict`,
`support_cutter`, `is_dislodged`, `path`), called once more on the settled phase,
so the explanation can never drift from the adjudication.
"""

from __future__ import annotations

from . import outcomes as oc
from .armyfleet import ARMY_PART
from .geo import province_of
from .orders import Convoy, Land, Move, Order, SupportHold, SupportMove
from .resolve import MovementResolution, NoPath


def order_outcome(order: Order, province: str, res: MovementResolution) -> oc.Outcome:
    """The outcome of the (legal) movement order of the unit at `province`."""
    kind = type(order)
    if kind is Move:
        return _move(order, province, res)  # type: ignore[arg-type]
    if kind is SupportMove or kind is SupportHold:
        return _support(order, province, res)  # type: ignore[arg-type]
    if kind is Land:
        return _landing(order, province, res)  # type: ignore[arg-type]
    if kind is Convoy:
        return _convoy(order, province, res)  # type: ignore[arg-type]
    dislodged = dislodgement(province, res, "hold")
    return dislodged if dislodged is not None else oc.Held()


def dislodgement(province: str, res: MovementResolution, doing: str, failed: oc.Outcome | None = None) -> oc.Dislodged | None:
    """The unit at `province` was dislodged: by whom, with which strengths."""
    attacker = res.dislodged_by.get(province)
    if attacker is None:
        return None
    resolver = res.resolver
    return oc.Dislodged(attacker, resolver.attack_strength(attacker), resolver.hold_strength(province), doing, failed)


def move_failure(source: str, res: MovementResolution) -> oc.Outcome:
    """Why the move from `source` failed, as the move decision said."""
    resolver = res.resolver
    # The verdict that settled the move, when it read only settled decisions; else the
    # same decision function asked again, now that every decision is settled.
    verdict = resolver.verdicts[source] if source in resolver.final else resolver.move_verdict(source)
    if isinstance(verdict, NoPath):
        return path_failure(source, res)
    return verdict if verdict is not None else oc.FleetStayed()


def path_failure(source: str, res: MovementResolution) -> oc.Outcome:
    """What broke a convoy route, from the convoying fleets' decisions (DATC 5.C)."""
    resolver = res.resolver
    if source not in resolver.convoy_moves:
        return oc.FleetStayed()  # an A/F's army part whose fleet did not reach the sea
    fleets = resolver.convoyers.get(source, [])
    if any(f in res.paradox_fleets for f in fleets):
        return oc.Paradox(rule="szykman")
    if not fleets:
        return oc.NoConvoyRoute()
    broken = tuple(sorted(f for f in fleets if f in res.dislodged_by))
    return oc.ConvoyDisrupted(broken, tuple(res.dislodged_by[f] for f in broken))


def _move(order: Move, province: str, res: MovementResolution) -> oc.Outcome:
    if res.succeeded[province]:
        target = province_of(order.target)
        victim = target if target in res.dislodged_by else None
        return oc.Moved(order.target, province in res.convoy_moves, victim)
    failure = move_failure(province, res)
    dislodged = dislodgement(province, res, "move", failure)
    return dislodged if dislodged is not None else failure


def _support(order: SupportHold | SupportMove, province: str, res: MovementResolution) -> oc.Outcome:
    if province in res.void_supports:
        target = order.target if isinstance(order, SupportMove) else None
        return oc.SupportVoid(order.supported, target)
    if res.succeeded[province]:
        return oc.SupportGiven()
    dislodged = dislodgement(province, res, "support")
    if dislodged is not None:
        return dislodged
    return oc.SupportCut(tuple(res.resolver.support_cutters(province)))


def _convoy(order: Convoy, province: str, res: MovementResolution) -> oc.Outcome:
    if province in res.paradox_fleets:
        return oc.Paradox(rule="szykman", convoying=True)
    dislodged = dislodgement(province, res, "convoy")
    if dislodged is not None:
        return dislodged
    army_order = res.orders.get(order.army)
    if not (isinstance(army_order, Move) and army_order.target == order.target):
        return oc.ConvoyVoid(order.army, order.target)
    return oc.Convoyed()


def _landing(order: Land, province: str, res: MovementResolution) -> oc.Outcome:
    army_part = province + ARMY_PART
    if res.succeeded[army_part]:
        return oc.Landed(order.target)
    if order.via and not res.succeeded[province]:
        return oc.LandingFailed("sea", move_failure(province, res), order.via)
    return oc.LandingFailed("land", move_failure(army_part, res), order.via)

