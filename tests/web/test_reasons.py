"""The review's sentences name the units (issue 21.18) and show reason codes in words (21.11)."""

from __future__ import annotations

from typing import Any

import pytest

from app.services.errors import DomainError
from app.services.readmodels.dashboard import OrderOutcome
from app.web.reasons import reason_text, review_orders


def _outcome(power: str, order: str, result: str, reason: str | None,
             outcome: dict[str, Any] | None) -> OrderOutcome:
    """The dashboard's value of one order, its outcome in the stored shape."""
    return OrderOutcome(power, order, result, reason, None, False, outcome)


def _phase() -> list[OrderOutcome]:
    return [
        _outcome("RUSSIA", "A UKR - GAL", "fails", "bounce",
                 {"kind": "bounced", "by": "gal", "attack": 2, "opposing": 2, "against": "hold"}),
        _outcome("RUSSIA", "A WAR S A UKR - GAL", "succeeds", "ok", {"kind": "support_given"}),
        _outcome("AUSTRIA", "A GAL H", "succeeds", "ok", {"kind": "held"}),
        _outcome("AUSTRIA", "A VIE S A GAL", "succeeds", "ok", {"kind": "support_given"}),
        _outcome("AUSTRIA", "A BUD S A GAL", "fails", "cut", {"kind": "support_cut", "by": ["rum"]}),
        _outcome("TURKEY", "A RUM - BUD", "fails", "bounce",
                 {"kind": "bounced", "by": "bud", "attack": 1, "opposing": 1, "against": "hold"}),
        _outcome("ENGLAND", "A LVP H", "succeeds", "civil_disorder", {"kind": "civil_disorder_removal", "unit": "lvp"}),
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
        _outcome("TURKEY", "A SEV H", "fails", "dislodged",
                 {"kind": "dislodged", "by": "ukr", "attack": 2, "hold": 1, "order": "hold"}),
        _outcome("RUSSIA", "A UKR - SEV", "succeeds", "ok", {"kind": "moved", "to": "sev", "dislodged": "sev"}),
        _outcome("RUSSIA", "A WAR S A UKR - SEV", "succeeds", "ok", {"kind": "support_given"}),
    ]
    reviews = {r.order: r for r in review_orders(phase)}
    assert reviews["A SEV H"].facts == ("Dislodged by A UKR (2: +A WAR) against hold strength 1.",)


def test_the_review_reads_the_typed_outcome_and_refuses_one_that_is_not() -> None:
    """The outcome is the engine's typed value (decoded by the services), not a dict read by key."""
    (review,) = review_orders([_outcome("FRANCE", "A PAR - BUR", "succeeds", "ok",
                                        {"kind": "moved", "to": "bur", "by_convoy": True})])
    assert review.facts == ("Moved to BUR by convoy.",)
    with pytest.raises(DomainError) as refused:
        review_orders([_outcome("FRANCE", "A PAR - BUR", "fails", "bounce", {"kind": "teleported", "to": "bur"})])
    assert refused.value.code == "bad_state"
