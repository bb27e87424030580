"""The adjudication review in English: each order's structured outcome (the engine's typed outcome,
as the services read it from the phase's stored results) as sentences with the strengths, and the
supports and convoys given to it by the other orders of the phase."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.services.readmodels.dashboard import OrderOutcome
from app.services.ruleset.engine import Outcome, outcomes

__all__ = ["REASON_TEXT", "Review", "reason_text", "review_orders"]

_AGAINST = {"hold": "the unit holding there", "head_to_head": "the unit moving the other way (head to head)",
            "prevent": "another move to the same place"}

# The reason codes the engine stores, in plain English (the phase page shows them beside the result).
REASON_TEXT = {
    "bounce": "bounced", "standoff": "standoff", "cut": "support cut", "dislodged": "dislodged",
    "no_convoy": "no convoy", "disrupted": "convoy disrupted", "void": "void", "illegal": "illegal order",
    "unreadable": "unreadable order", "duplicate": "second order for the unit", "paradox": "convoy paradox",
    "destroyed": "destroyed", "no_support": "no support", "ruling": "GM ruling", "too_many": "too many",
    "civil_disorder": "civil disorder", "least_impact": "least-impact rule", "waived": "waived",
    "disbanded": "disbanded",
}
_SUCCESS = {"", "succeeds", "success", "ok", "resolved", "moves", "holds"}


def reason_text(reason: str | None) -> str:
    """A stored reason code (``civil_disorder``) as words (``civil disorder``)."""
    code = (reason or "").strip().lower()
    return REASON_TEXT.get(code, code.replace("_", " "))


@dataclass(frozen=True)
class _Entry:
    """One order of the phase as the review names it (the power by its name)."""

    power: str
    order: str
    result: str
    reason: str | None


@dataclass(frozen=True)
class _Phase:
    """The phase's orders, to name the units an outcome points at by province."""

    entries: tuple[_Entry, ...] = ()

    def unit(self, province: str | None) -> str:
        """``A WAR`` for ``war`` (the unit whose order starts there), else ``the unit in WAR``."""
        where = _p(province).split("/")[0]
        for entry in self.entries:
            words = _norm(entry.order).split()
            if len(words) >= 2 and words[1].split("/")[0] == where and words[0] in ("A", "F"):
                return f"{words[0]} {words[1]}"
        return f"the unit in {where}"

    def order_of(self, province: str | None) -> str | None:
        where = _p(province).split("/")[0]
        for entry in self.entries:
            words = _norm(entry.order).split()
            if len(words) >= 2 and words[1].split("/")[0] == where:
                return " ".join(words)
        return None

    def supporters(self, order: str | None) -> list[str]:
        """The units whose support of ``order`` counted."""
        if not order:
            return []
        words = order.split()
        is_move = len(words) >= 4 and words[2] == "-"
        wanted = order if is_move else " ".join(words[:2])
        found = []
        for entry in self.entries:
            text = _norm(entry.order)
            helper, verb, helped = f" {text} ".partition(" S ")
            if not verb or entry.result.lower() not in _SUCCESS:
                continue
            helped = helped.strip()
            if helped == wanted or (not is_move and helped in (f"{wanted} H", wanted)):
                found.append(" ".join(helper.split()[:2]))
        return found

    def strength(self, province: str | None, value: int, order: str | None = None) -> str:
        """``A UKR (2: +A WAR)``: the unit, its strength and the supports that made it."""
        helpers = self.supporters(order if order is not None else self.order_of(province))
        return f"{self.unit(province)} ({value}{': +' + ', +'.join(helpers) if helpers else ''})"


@dataclass(frozen=True)
class Review:
    power: str
    order: str
    result: str
    reason: str  # the stored code (``civil_disorder``)
    reason_text: str  # the same in words (``civil disorder``)
    explanation: str
    default: bool
    facts: tuple[str, ...]  # what decided it, in English
    helpers: tuple[str, ...]  # supports and convoys of the other orders for this order


def _p(value: str | None) -> str:
    return value.upper() if value else "?"


def _list(values: Sequence[str]) -> str:
    items = [_p(v) for v in values]
    return ", ".join(items) if items else "?"


def _facts(outcome: Outcome | None, order: str = "", ph: _Phase | None = None) -> list[str]:
    """What decided an order, in English: the engine's typed outcome with the units it names."""
    ph = ph or _Phase()
    o = outcome
    if o is None:
        return []
    if isinstance(o, outcomes.Moved):
        text = f"Moved to {_p(o.to)}" + (" by convoy" if o.by_convoy else "")
        if o.dislodged:
            text += f", dislodging the unit in {_p(o.dislodged)}"
        return [text + "."]
    if isinstance(o, outcomes.Bounced):
        mine = _norm(order)
        here = mine.split()[1] if len(mine.split()) >= 2 else "?"
        return [f"Bounced: {ph.strength(here, o.attack, mine)} vs {ph.strength(o.by, o.opposing)}, "
                f"{_AGAINST.get(o.against, o.against)}."
                + (" Equal strength: neither gets in." if o.attack == o.opposing else "")]
    if isinstance(o, outcomes.OwnUnit):
        return [f"Failed: a unit may not dislodge one of its own power ({_p(o.unit)})."]
    if isinstance(o, outcomes.NoConvoyRoute):
        return ["Failed: no fleet was ordered to convoy this army along a route."]
    if isinstance(o, outcomes.ConvoyDisrupted):
        return [f"Failed: the convoy was disrupted; fleet(s) {_list(o.fleets)} dislodged by {_list(o.by)}."]
    if isinstance(o, outcomes.Paradox):
        return ["Failed: the convoy is part of a paradox; by Szykman's rule its fleets hold."]
    if isinstance(o, outcomes.Dislodged):
        text = f"Dislodged by {ph.strength(o.by, o.attack)} against hold strength {o.hold}."
        return [text, *_facts(o.failed, order, ph)]
    if isinstance(o, outcomes.SupportGiven):
        helped = f" {_norm(order)} ".partition(" S ")[2].strip()
        return [f"Support given to {helped}: it counted." if helped else "Support given: it counted."]
    if isinstance(o, outcomes.SupportCut):
        return [f"Support cut by an attack from {', '.join(ph.unit(b) for b in o.by) or '?'}."]
    if isinstance(o, outcomes.SupportVoid):
        target = f" to {_p(o.target)}" if o.target else " to hold"
        return [f"Support void: the unit in {_p(o.supported)} was not ordered{target}."]
    if isinstance(o, outcomes.Convoyed):
        return ["Convoy given: the army crossed."]
    if isinstance(o, outcomes.ConvoyVoid):
        return [f"Convoy void: the army in {_p(o.army)} was not ordered to {_p(o.target)}."]
    if isinstance(o, outcomes.FleetStayed):
        return ["The fleet stayed."]
    if isinstance(o, outcomes.Held):
        return ["Held."]
    if isinstance(o, outcomes.Unreadable):
        return [f"Unreadable: {o.message}"]
    if isinstance(o, outcomes.Illegal):
        return [f"Illegal: {o.message}"]
    if isinstance(o, outcomes.Duplicate):
        return ["Ignored: a second order for the same unit."]
    if isinstance(o, outcomes.Retreated):
        return [f"Retreated to {_p(o.to)}."]
    if isinstance(o, outcomes.RetreatStandoff):
        return [f"Disbanded: retreat standoff with {', '.join(o.others)}."]
    if isinstance(o, outcomes.Disbanded):
        return ["Disbanded" + (": it had nowhere to retreat." if o.no_retreat else ".")]
    if isinstance(o, outcomes.ArmyStarved):
        return [*_facts(o.then, order, ph), "Its army ran out of rations at sea."]
    if isinstance(o, outcomes.LandingFailed):
        return [f"The landing failed ({o.stage}).", *_facts(o.cause, order, ph)]
    if isinstance(o, outcomes.Built):
        return [f"Built {_p(o.unit)}."]
    if isinstance(o, outcomes.Waived):
        return ["Build waived."]
    if isinstance(o, outcomes.Removed):
        return [f"Removed {_p(o.unit)}."]
    if isinstance(o, outcomes.CivilDisorderRemoval):
        return [f"Removed {_p(o.unit)} in civil disorder."]
    if isinstance(o, outcomes.LeastImpactRemoval):
        return [f"Removed {_p(o.unit)} by the least-impact rule."]
    if isinstance(o, outcomes.SiteTaken):
        return ["Failed: the site is taken."]
    if isinstance(o, outcomes.AlreadyRemoved):
        return ["Failed: already removed."]
    if isinstance(o, outcomes.TooMany):
        return [f"Failed: more orders than the {o.owed} owed."]
    if isinstance(o, outcomes.Boarded):
        return [f"Boarded fleet {_p(o.fleet)}."]
    if isinstance(o, outcomes.Landed):
        return [f"Landed at {_p(o.at)}."]
    return [f"{o.kind.replace('_', ' ').capitalize()}."]


def _norm(text: str) -> str:
    return " ".join(text.upper().replace("-", " - ").split())


def _helpers(order: str, others: Sequence[_Entry]) -> list[str]:
    """The supports and convoys the other orders gave this one, with what became of them."""
    words = _norm(order).split()
    if len(words) < 2:
        return []
    unit = " ".join(words[:2])
    is_move = len(words) >= 4 and words[2] == "-"
    wanted = _norm(order) if is_move else unit
    found = []
    for entry in others:
        text = _norm(entry.order)
        for verb, noun in ((" S ", "Support"), (" C ", "Convoy")):
            if verb not in f" {text} ":
                continue
            helper, _, helped = f" {text} ".partition(verb)
            helped = helped.strip()
            if helped == wanted or (noun == "Support" and not is_move and helped == unit):
                found.append(f"{noun} from {helper.strip()} ({entry.power}): {entry.result.lower()}"
                             + (f", {reason_text(entry.reason)}" if entry.reason not in (None, "", "ok") else ""))
    return found


def review_orders(orders: Sequence[OrderOutcome], power_name: Callable[[str], str] = str) -> tuple[Review, ...]:
    """``orders``: the dashboard's ``OrderOutcome`` values of one phase (each with its typed outcome,
    ``decided``); ``power_name`` names a power."""
    entries = [_Entry(power_name(o.power), o.order, o.result, o.reason) for o in orders]
    ph = _Phase(tuple(entries))
    return tuple(Review(
        power=power_name(o.power), order=o.order, result=o.result, reason=o.reason or "",
        reason_text=reason_text(o.reason), explanation=o.explanation or "",
        default=o.default, facts=tuple(_facts(o.decided, o.order, ph)),
        helpers=tuple(_helpers(o.order, [e for e in entries if e.order != o.order])),
    ) for o in orders)
