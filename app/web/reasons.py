"""The adjudication review in English: each order's structured outcome (the engine's typed outcome,
stored as JSON in the phase's results) as sentences with the strengths, and the supports and
convoys given to it by the other orders of the phase."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
class _Phase:
    """The phase's orders, to name the units an outcome points at by province."""

    entries: tuple[Mapping[str, Any], ...] = ()

    def unit(self, province: Any) -> str:
        """``A WAR`` for ``war`` (the unit whose order starts there), else ``the unit in WAR``."""
        where = _p(province).split("/")[0]
        for entry in self.entries:
            words = _norm(str(entry.get("order") or "")).split()
            if len(words) >= 2 and words[1].split("/")[0] == where and words[0] in ("A", "F"):
                return f"{words[0]} {words[1]}"
        return f"the unit in {where}"

    def order_of(self, province: Any) -> str | None:
        where = _p(province).split("/")[0]
        for entry in self.entries:
            words = _norm(str(entry.get("order") or "")).split()
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
            text = _norm(str(entry.get("order") or ""))
            helper, verb, helped = f" {text} ".partition(" S ")
            if not verb or str(entry.get("result") or "").lower() not in _SUCCESS:
                continue
            helped = helped.strip()
            if helped == wanted or (not is_move and helped in (f"{wanted} H", wanted)):
                found.append(" ".join(helper.split()[:2]))
        return found

    def strength(self, province: Any, value: Any, order: str | None = None) -> str:
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


def _p(value: Any) -> str:
    return str(value).upper() if value else "?"


def _list(values: Any) -> str:
    items = [_p(v) for v in values or []]
    return ", ".join(items) if items else "?"


def _facts(outcome: Mapping[str, Any] | None, order: str = "", ph: _Phase | None = None) -> list[str]:
    ph = ph or _Phase()
    if not outcome:
        return []
    kind = str(outcome.get("kind", ""))
    o = outcome
    if kind == "moved":
        text = f"Moved to {_p(o.get('to'))}" + (" by convoy" if o.get("by_convoy") else "")
        if o.get("dislodged"):
            text += f", dislodging the unit in {_p(o.get('dislodged'))}"
        return [text + "."]
    if kind == "bounced":
        mine = _norm(order)
        here = mine.split()[1] if len(mine.split()) >= 2 else "?"
        return [f"Bounced: {ph.strength(here, o.get('attack'), mine)} vs {ph.strength(o.get('by'), o.get('opposing'))}, "
                f"{_AGAINST.get(str(o.get('against')), str(o.get('against')))}."
                + (" Equal strength: neither gets in." if o.get("attack") == o.get("opposing") else "")]
    if kind == "own_unit":
        return [f"Failed: a unit may not dislodge one of its own power ({_p(o.get('unit'))})."]
    if kind == "no_convoy_route":
        return ["Failed: no fleet was ordered to convoy this army along a route."]
    if kind == "convoy_disrupted":
        return [f"Failed: the convoy was disrupted; fleet(s) {_list(o.get('fleets'))} dislodged by "
                f"{_list(o.get('by'))}."]
    if kind == "paradox":
        return ["Failed: the convoy is part of a paradox; by Szykman's rule its fleets hold."]
    if kind == "dislodged":
        text = (f"Dislodged by {ph.strength(o.get('by'), o.get('attack'))} against hold strength {o.get('hold')}.")
        failed = o.get("failed")
        return [text, *_facts(failed if isinstance(failed, Mapping) else None, order, ph)]
    if kind == "support_given":
        helped = f" {_norm(order)} ".partition(" S ")[2].strip()
        return [f"Support given to {helped}: it counted." if helped else "Support given: it counted."]
    if kind == "support_cut":
        return [f"Support cut by an attack from {', '.join(ph.unit(b) for b in o.get('by') or []) or '?'}."]
    if kind == "support_void":
        target = f" to {_p(o.get('target'))}" if o.get("target") else " to hold"
        return [f"Support void: the unit in {_p(o.get('supported'))} was not ordered{target}."]
    if kind == "convoyed":
        return ["Convoy given: the army crossed."]
    if kind == "convoy_void":
        return [f"Convoy void: the army in {_p(o.get('army'))} was not ordered to {_p(o.get('target'))}."]
    if kind == "fleet_stayed":
        return ["The fleet stayed."]
    if kind == "held":
        return ["Held."]
    if kind in ("unreadable", "illegal"):
        return [f"{'Unreadable' if kind == 'unreadable' else 'Illegal'}: {o.get('message')}"]
    if kind == "duplicate":
        return ["Ignored: a second order for the same unit."]
    if kind == "retreated":
        return [f"Retreated to {_p(o.get('to'))}."]
    if kind == "retreat_standoff":
        return [f"Disbanded: retreat standoff with {', '.join(str(x) for x in o.get('others') or [])}."]
    if kind == "disbanded":
        return ["Disbanded" + (": it had nowhere to retreat." if o.get("no_retreat") else ".")]
    if kind == "army_starved":
        then = o.get("then")
        return [*_facts(then if isinstance(then, Mapping) else None, order, ph), "Its army ran out of rations at sea."]
    if kind == "landing_failed":
        cause = o.get("cause")
        return [f"The landing failed ({o.get('stage')}).", *_facts(cause if isinstance(cause, Mapping) else None, order, ph)]
    simple = {"built": "Built {unit}.", "waived": "Build waived.", "removed": "Removed {unit}.",
              "civil_disorder_removal": "Removed {unit} in civil disorder.",
              "least_impact_removal": "Removed {unit} by the least-impact rule.",
              "site_taken": "Failed: the site is taken.", "already_removed": "Failed: already removed.",
              "too_many": "Failed: more orders than the {owed} owed.", "boarded": "Boarded fleet {fleet}.",
              "landed": "Landed at {at}."}
    if kind in simple:
        return [simple[kind].format(**{k: _p(v) if k != "owed" else v for k, v in o.items()})]
    return [f"{kind.replace('_', ' ').capitalize()}."]


def _norm(text: str) -> str:
    return " ".join(text.upper().replace("-", " - ").split())


def _helpers(order: str, others: Sequence[Mapping[str, Any]]) -> list[str]:
    """The supports and convoys the other orders gave this one, with what became of them."""
    words = _norm(order).split()
    if len(words) < 2:
        return []
    unit = " ".join(words[:2])
    is_move = len(words) >= 4 and words[2] == "-"
    wanted = _norm(order) if is_move else unit
    found = []
    for entry in others:
        text = _norm(str(entry.get("order") or ""))
        for verb, noun in ((" S ", "Support"), (" C ", "Convoy")):
            if verb not in f" {text} ":
                continue
            helper, _, helped = f" {text} ".partition(verb)
            helped = helped.strip()
            if helped == wanted or (noun == "Support" and not is_move and helped == unit):
                result = str(entry.get("result") or "").lower()
                found.append(f"{noun} from {helper.strip()} ({entry.get('power')}): {result}"
                             + (f", {reason_text(entry.get('reason'))}" if entry.get("reason") not in (None, "", "ok") else ""))
    return found


def review_orders(orders: Sequence[Any], power_name: Callable[[str], str] = str) -> tuple[Review, ...]:
    """``orders``: the dashboard's ``OrderOutcome`` values of one phase; ``power_name`` names a power."""
    entries = [{"power": power_name(o.power), "order": o.order, "result": o.result, "reason": o.reason}
               for o in orders]
    ph = _Phase(tuple(entries))
    return tuple(Review(
        power=power_name(o.power), order=o.order, result=o.result, reason=o.reason or "",
        reason_text=reason_text(o.reason), explanation=o.explanation or "",
        default=o.default, facts=tuple(_facts(o.outcome, o.order, ph)),
        helpers=tuple(_helpers(o.order, [e for e in entries if e["order"] != o.order])),
    ) for o in orders)
