"""The one sentence of an order result, made from its outcome.

`explain(outcome, name)` is the only place the engine writes English; `name` turns
a province into the unit that stood there (`BUR` -> `A BUR`). The sentences are
those the results mail has always shown: change them only with the templates.
"""

from __future__ import annotations

from collections.abc import Callable

from . import outcomes as oc

Namer = Callable[[str], str]

NO_ORDER = "no order received: "


def explain(outcome: oc.Outcome, name: Namer, *, default: bool = False, dislodged_by: str | None = None) -> str:
    """The sentence for one order's outcome. `default`: the judge supplied the order;
    `dislodged_by`: the unit was also dislodged (said after the main sentence)."""
    note = f"; dislodged by {name(dislodged_by)}" if dislodged_by else ""
    if default and isinstance(outcome, (oc.Held, oc.Dislodged)):
        text = "no order received: the unit holds"
        return text if isinstance(outcome, oc.Held) else f"{text}; {_sentence(outcome, name)}"
    if default and isinstance(outcome, oc.Waived):
        return "no build ordered: waived"
    text = _sentence(outcome, name)
    if isinstance(outcome, (oc.SupportVoid, oc.Paradox, oc.Landed, oc.LandingFailed)):
        text += note
    if default and isinstance(outcome, (oc.Retreated, oc.RetreatStandoff, oc.Disbanded)):
        text = NO_ORDER + text
    return text


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
    if isinstance(outcome, oc.Moved):
        via = " by convoy" if outcome.by_convoy else ""
        victim = f", dislodging {name(outcome.dislodged)}" if outcome.dislodged else ""
        return f"moves{via} to {outcome.to}{victim}"
    if isinstance(outcome, oc.Dislodged):
        by = name(outcome.by)
        if outcome.order == "move":
            why = why_move_failed(outcome.failed, name) if outcome.failed is not None else "bounced"
            return f"{why}; dislodged by {by}"
        prefix = {"support": "support cut: ", "convoy": "convoy disrupted: "}.get(outcome.order, "")
        return f"{prefix}dislodged by {by}"
    if isinstance(outcome, oc.SupportCut):
        cutters = " and ".join(name(c) for c in outcome.by)
        return f"support cut by {cutters}" if cutters else "support cut"
    if isinstance(outcome, oc.SupportVoid):
        wanted = f"move to {outcome.target}" if outcome.target is not None else "hold"
        return f"void: {name(outcome.supported)} did not {wanted}"
    if isinstance(outcome, oc.Paradox):
        if outcome.convoying:
            return "convoy paradox: by Szykman's rule this fleet holds"
        return why_move_failed(outcome, name)
    if isinstance(outcome, oc.ConvoyVoid):
        return f"void: {name(outcome.army)} did not move to {outcome.target}"
    if isinstance(outcome, oc.Boarded):
        return f"boards the fleet at {outcome.fleet}: an A/F"
    if isinstance(outcome, oc.Landed):
        return f"the army lands at {outcome.at}"
    if isinstance(outcome, oc.LandingFailed):
        why = why_move_failed(outcome.cause, name)
        if outcome.stage == "sea":
            return f"the A/F could not reach {outcome.via} ({why}): the army stays aboard"
        return f"could not land ({why}): the army stays aboard"
    if isinstance(outcome, (oc.Unreadable, oc.Illegal)):
        return outcome.message
    if isinstance(outcome, oc.Retreated):
        return f"retreats to {outcome.to}"
    if isinstance(outcome, oc.RetreatStandoff):
        return f"bounced with {', '.join(outcome.others)}: disbanded"
    if isinstance(outcome, oc.Disbanded):
        return "no retreat possible: disbanded" if outcome.no_retreat else "disbanded"
    if isinstance(outcome, oc.Built):
        return f"builds {outcome.unit}"
    if isinstance(outcome, oc.Removed):
        return f"removes {outcome.unit}"
    if isinstance(outcome, oc.TooMany):
        left = "no build left: " if outcome.builds else "no removal left: "
        return left + owed_text(outcome.owed)
    return why_move_failed(outcome, name)


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
    explanation = explain(outcome, name, default=default, dislodged_by=dislodged_by)
    return oc.OrderResult(power, text, order, result, reason, explanation, default, dislodged_by, outcome)
