"""The one sentence of an order result, made from its outcome.

`explain(outcome, name)` is the only place the engine writes English; `name` turns
a province into the unit that stood there (`BUR` -> `A BUR`). The sentences are
those the results mail has always shown: change them only with the templates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import outcomes as oc

Namer = Callable[[str], str]

NO_ORDER = "no order received: "


def explain(outcome: oc.Outcome, name: Namer, *, default: bool = False, dislodged_by: str | None = None) -> str:
    """The sentence for one order's outcome. `default`: the judge supplied the order;
    `dislodged_by`: the unit was also dislodged (said after the main sentence)."""
    kind = outcome.kind
    if default:
        if kind == "held":
            return "no order received: the unit holds"
        if kind == "dislodged":
            return f"no order received: the unit holds; {_sentence(outcome, name)}"
        if kind == "waived":
            return "no build ordered: waived"
        if kind in _RETREAT_KINDS:
            return NO_ORDER + _sentence(outcome, name)
    if isinstance(outcome, oc.ArmyStarved):
        before = explain(outcome.then, name, default=default, dislodged_by=dislodged_by)
        return f"{before}; its army ran out of rations at sea and is lost"
    text = _sentence(outcome, name)
    if dislodged_by and kind in _NOTED_KINDS:
        text += f"; dislodged by {name(dislodged_by)}"
    return text


_RETREAT_KINDS = frozenset({"retreated", "retreat_standoff", "disbanded"})
_NOTED_KINDS = frozenset({"support_void", "paradox", "landed", "landing_failed"})


def _how(attack: int, opposing: int, weaker: str) -> str:
    return "equal strength" if attack == opposing else weaker


def why_move_failed(outcome: oc.Outcome, name: Namer) -> str:
    """Why a move did not happen."""
    if isinstance(outcome, oc.Paradox):
        return "no convoy: the convoy is part of a paradox, and by Szykman's rule its fleets hold"
    if isinstance(outcome, oc.NoConvoyRoute):
        return "no convoy: no fleet was ordered to convoy this army"
    if isinstance(outcome, oc.ConvoyDisrupted):
        return "no convoy: the convoy was disrupted"
    if isinstance(outcome, oc.OwnUnit):
        return f"bounced: cannot dislodge {name(outcome.unit)} of its own power"
    if isinstance(outcome, oc.Bounced):
        weaker = "lost the head-to-head battle," if outcome.against == "head_to_head" else "weaker,"
        how = _how(outcome.attack, outcome.opposing, weaker)
        return f"bounced: {how} {outcome.attack} vs {outcome.opposing} with {name(outcome.by)}"
    return "bounced"


def _sentence(outcome: oc.Outcome, name: Namer) -> str:
    simple = _SIMPLE.get(outcome.kind)
    if simple is not None:
        return simple
    return _SENTENCES[outcome.kind](outcome, name)


def _moved(outcome: oc.Moved, name: Namer) -> str:
    via = " by convoy" if outcome.by_convoy else ""
    victim = f", dislodging {name(outcome.dislodged)}" if outcome.dislodged else ""
    return f"moves{via} to {outcome.to}{victim}"


def _dislodged(outcome: oc.Dislodged, name: Namer) -> str:
    by = name(outcome.by)
    if outcome.order == "move":
        why = why_move_failed(outcome.failed, name) if outcome.failed is not None else "bounced"
        return f"{why}; dislodged by {by}"
    prefix = {"support": "support cut: ", "convoy": "convoy disrupted: "}.get(outcome.order, "")
    return f"{prefix}dislodged by {by}"


def _support_cut(outcome: oc.SupportCut, name: Namer) -> str:
    cutters = " and ".join(name(c) for c in outcome.by)
    return f"support cut by {cutters}" if cutters else "support cut"


def _support_void(outcome: oc.SupportVoid, name: Namer) -> str:
    wanted = f"move to {outcome.target}" if outcome.target is not None else "hold"
    return f"void: {name(outcome.supported)} did not {wanted}"


def _paradox(outcome: oc.Paradox, name: Namer) -> str:
    if outcome.convoying:
        return "convoy paradox: by Szykman's rule this fleet holds"
    return why_move_failed(outcome, name)


def _landing_failed(outcome: oc.LandingFailed, name: Namer) -> str:
    why = why_move_failed(outcome.cause, name)
    if outcome.stage == "sea":
        return f"the A/F could not reach {outcome.via} ({why}): the army stays aboard"
    if outcome.stage == "ferry":
        return f"{why}: the army stays aboard {name(outcome.via or '')} as an A/F"
    return f"could not land ({why}): the army stays aboard"


def _too_many(outcome: oc.TooMany, name: Namer) -> str:
    left = "no build left: " if outcome.builds else "no removal left: "
    return left + owed_text(outcome.owed)


_SENTENCES: dict[str, Callable[[Any, Namer], str]] = {
    "moved": _moved,
    "dislodged": _dislodged,
    "support_cut": _support_cut,
    "support_void": _support_void,
    "paradox": _paradox,
    "convoy_void": lambda o, name: f"void: {name(o.army)} did not move to {o.target}",
    "boarded": lambda o, name: f"boards the fleet at {o.fleet}: an A/F",
    "landed": lambda o, name: f"the army lands at {o.at}",
    "landing_failed": _landing_failed,
    "unreadable": lambda o, name: str(o.message),
    "illegal": lambda o, name: str(o.message),
    "retreated": lambda o, name: f"retreats to {o.to}",
    "retreat_standoff": lambda o, name: f"bounced with {', '.join(o.others)}: disbanded",
    "disbanded": lambda o, name: "no retreat possible: disbanded" if o.no_retreat else "disbanded",
    "built": lambda o, name: f"builds {o.unit}",
    "removed": lambda o, name: f"removes {o.unit}",
    "too_many": _too_many,
    "bounced": lambda o, name: why_move_failed(o, name),
    "own_unit": lambda o, name: why_move_failed(o, name),
    "no_convoy_route": lambda o, name: why_move_failed(o, name),
    "convoy_disrupted": lambda o, name: why_move_failed(o, name),
    "fleet_stayed": lambda o, name: why_move_failed(o, name),
}


_SIMPLE: dict[str, str] = {
    "held": "holds",
    "support_given": "support given",
    "convoyed": "convoys",
    "duplicate": "this unit was given different orders, so it holds",
    "waived": "build waived",
    "site_taken": "a unit was already built there",
    "already_removed": "that unit was already removed",
    "civil_disorder_removal": "no removal ordered: removed by the civil disorder rule",
    "least_impact_removal": "no removal ordered: removed by the least-impact rule",
}


def owed_text(owed: int) -> str:
    if owed > 0:
        return f"{owed} build{'s' if owed != 1 else ''} allowed"
    if owed < 0:
        return f"{-owed} removal{'s' if owed != -1 else ''} owed"
    return "no adjustments due"


def order_result(
    power: str,
    text: str,
    order: str | None,
    outcome: oc.Outcome,
    name: Namer = str,
    *,
    default: bool = False,
    dislodged_by: str | None = None,
) -> oc.OrderResult:
    """An order's result, its verdict and sentence made from its outcome."""
    result, reason = oc.verdict(outcome)
    if default or dislodged_by:
        explanation = explain(outcome, name, default=default, dislodged_by=dislodged_by)
    else:  # the common case, without going through `explain`'s cases
        kind = outcome.kind
        simple = _SIMPLE.get(kind)
        if simple is not None:
            explanation = simple
        else:
            sentence = _SENTENCES.get(kind)
            explanation = sentence(outcome, name) if sentence is not None else explain(outcome, name)
    return oc.OrderResult(power, text, order, result, reason, explanation, default, dislodged_by, outcome)
