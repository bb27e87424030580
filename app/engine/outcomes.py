"""Order results that say why: a result, a short reason code and a sentence."""

from __future__ import annotations

from dataclasses import dataclass

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
    WAIVED = "waived"
    DESTROYED = "destroyed"


@dataclass(frozen=True)
class OrderResult:
    power: str
    text: str  # the order as written (or the default order the judge applied)
    order: str | None  # the order as the judge understood it, in short form
    result: str  # SUCCEEDS | FAILS | INVALID
    reason: str
    explanation: str
    default: bool = False  # an order the judge supplied for a unit without one
    dislodged_by: str | None = None  # province the dislodging attack came from

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "power": self.power,
            "order": self.text,
            "normalized": self.order,
            "result": self.result,
            "reason": self.reason,
            "explanation": self.explanation,
        }
        if self.default:
            data["default"] = True
        if self.dislodged_by:
            data["dislodged_by"] = self.dislodged_by
        return data
