"""The review's sentences name the units (issue 21.18) and show reason codes in words (21.11)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.web.reasons import reason_text, review_orders


@dataclass(frozen=True)
class _Outcome:  # the fields of the dashboard's OrderOutcome that the review reads
    power: str
    order: str
    result: str
    reason: str | None
    outcome: dict[str, Any] | None
    explanation: str | None = None
    default: bool = False


def _phase() -> list[_Outcome]:
    return [
        _Outcome("RUSSIA", "A UKR - GAL", "fails", "bounce",
                 {"kind": "bounced", "by": "gal", "attack": 2, "opposing": 2, "against": "hold"}),
        _Outcome("RUSSIA", "A WAR S A UKR - GAL", "succeeds", "ok", {"kind": "support_given"}),
        _Outcome("AUSTRIA", "A GAL H", "succeeds", "ok", {"kind": "held"}),
        _Outcome("AUSTRIA", "A VIE S A GAL", "succeeds", "ok", {"kind": "support_given"}),
        _Outcome("AUSTRIA", "A BUD S A GAL", "fails", "cut", {"kind": "support_cut", "by": ["rum"]}),
        _Outcome("TURKEY", "A RUM - BUD", "fails", "bounce",
                 {"kind": "bounced", "by": "bud", "attack": 1, "opposing": 1, "against": "hold"}),
        _Outcome("ENGLAND", "A LVP H", "succeeds", "civil_disorder", {"kind": "civil_disorder_removal", "unit": "lvp"}),
    ]


def test_a_bounce_names_both_units_and_the_supports_that_counted() -> None:
    reviews = {r.order: r for r in review_orders(_phase())}
    assert reviews["A UKR - GAL"].facts == (
        "Bounced: A UKR (2: +A WAR) vs A GAL (2: +A VIE), the unit holding there. Equal strength: neither gets in.",)


def test_a_support_given_names_the_move_it_supported_and_a_cut_names_the_cutting_unit() -> None:
    reviews = {r.order: r for r in review_orders(_phase())}
    assert reviews["A WAR S A UKR - GAL"].facts == ("Support given to A UKR - GAL: it counted.",)
    assert reviews["A BUD S A GAL"].facts == ("Support cut by an attack from A RUM.",)


def test_reason_codes_are_shown_in_words() -> None:
    reviews = {r.order: r for r in review_orders(_phase())}
    assert reviews["A LVP H"].reason == "civil_disorder" and reviews["A LVP H"].reason_text == "civil disorder"
    assert reason_text("least_impact") == "least-impact rule" and reason_text("no_convoy") == "no convoy"


def test_a_dislodgement_names_the_attacker_and_its_supports() -> None:
    phase = [
        _Outcome("TURKEY", "A SEV H", "fails", "dislodged",
                 {"kind": "dislodged", "by": "ukr", "attack": 2, "hold": 1, "order": "hold"}),
        _Outcome("RUSSIA", "A UKR - SEV", "succeeds", "ok", {"kind": "moved", "to": "sev", "dislodged": "sev"}),
        _Outcome("RUSSIA", "A WAR S A UKR - SEV", "succeeds", "ok", {"kind": "support_given"}),
    ]
    reviews = {r.order: r for r in review_orders(phase)}
    assert reviews["A SEV H"].facts == ("Dislodged by A UKR (2: +A WAR) against hold strength 1.",)
