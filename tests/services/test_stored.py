"""The stored JSON of a phase read once into typed values (``ruleset.stored``): what the codec
writes from a real adjudication reads back with the same facts, and JSON of another shape is
refused with ``bad_state``."""

from __future__ import annotations

from typing import Any

import pytest

from app.services.errors import DomainError
from app.services.ruleset import engine as game_engine
from app.services.ruleset.engine import GameState, PhaseResult, Variant
from app.services.ruleset.stored import StoredState, stored_outcome, stored_result, stored_state


def _adjudicated(variant_name: str, state: dict[str, Any],
                 orders: dict[str, list[str]]) -> tuple[Variant, PhaseResult, dict[str, Any], dict[str, Any]]:
    """The engine's result of ``orders`` and the JSON the server stores for it (results, next position)."""
    variant = game_engine.game_variant(variant_name)
    result = game_engine.adjudicate(variant, game_engine.state_of(variant, state), orders)
    return variant, result, game_engine.result_json(variant, result), game_engine.state_json(variant, result.state)


def _standard(phase: str, **units: list[str]) -> dict[str, Any]:
    start = game_engine.initial_state("standard")
    return {**start, "phase": phase, "units": {**start["units"], **units}}


def _by_power(pairs: list[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for power, item in pairs:
        table.setdefault(power, []).append(item)
    return {power: tuple(sorted(items)) for power, items in table.items()}


def _same_position(read: StoredState, state: GameState) -> None:
    assert read.phase == str(state.phase)
    assert {p: tuple(sorted(u)) for p, u in read.units.items()} == _by_power(
        [(power, str(unit)) for power, unit in state.units.values()])
    assert {p: tuple(sorted(c)) for p, c in read.centres.items()} == _by_power(
        [(power, province) for province, power in state.centres.items()])
    assert {(d.power, d.unit, d.attacker_from, d.retreats) for d in read.dislodged} == {
        (d.power, str(d.unit), d.attacker_from, d.retreats) for d in state.dislodged.values()}


# A bounce in Burgundy, a support cut, and the army in Budapest dislodged by a supported attack.
BUDAPEST = {
    "AUSTRIA": ["A Bud H", "A Vie - Gal", "F Tri H"],
    "RUSSIA": ["A Gal - Bud", "A Rum S A Gal - Bud", "A War H", "F Sev H"],
    "FRANCE": ["A Par - Bur"],
    "GERMANY": ["A Mun - Bur"],
}


def test_a_stored_result_reads_back_with_every_order_outcome_and_the_position_it_leaves() -> None:
    state = _standard("S1901M", AUSTRIA=["A BUD", "A VIE", "F TRI"], RUSSIA=["A GAL", "A RUM", "A WAR", "F SEV"])
    _variant, result, results_json, after_json = _adjudicated("standard", state, BUDAPEST)
    read = stored_result(results_json)
    assert read.phase == "S1901M" and read.next_phase == "S1901R" and read.winner is None
    assert [(o.power, o.order, o.normalized, o.result, o.reason, o.explanation, o.default, o.dislodged_by, o.outcome)
            for o in read.orders] == [
        (r.power, r.text, r.order, r.result, r.reason, r.explanation, r.default, r.dislodged_by, r.outcome)
        for r in result.results]
    budapest = next(o for o in read.orders if o.text.startswith("A BUD"))
    assert isinstance(budapest.outcome, game_engine.outcomes.Dislodged) and budapest.outcome.by == "GAL"
    assert budapest.outcome.attack == 2 and budapest.outcome.hold == 1
    burgundy = next(o for o in read.orders if o.power == "FRANCE")
    assert burgundy.outcome == game_engine.outcomes.Bounced(by="MUN", attack=1, opposing=1, against="prevent")
    assert [(d.power, d.unit, d.attacker_from) for d in read.dislodged] == [("AUSTRIA", "A BUD", "GAL")]
    assert read.retreating == read.dislodged and read.dislodged[0].retreats
    _same_position(stored_state(after_json), result.state)
    assert (read.units, read.centres, read.dislodged) == (
        stored_state(after_json).units, stored_state(after_json).centres, stored_state(after_json).dislodged)


def test_a_stored_position_reads_back_with_its_dislodged_units_and_retreats() -> None:
    state = _standard("S1901M", AUSTRIA=["A BUD", "A VIE", "F TRI"], RUSSIA=["A GAL", "A RUM", "A WAR", "F SEV"])
    _variant, result, _results, after_json = _adjudicated("standard", state, BUDAPEST)
    read = stored_state(after_json)
    _same_position(read, result.state)
    assert read.variant == "standard"
    assert read.dislodged_of("austria") == read.dislodged and read.dislodged[0].province == "BUD"
    assert read.units_of("russia") == ("A BUD", "A RUM", "A WAR", "F SEV")
    assert read.centre_counts()["RUSSIA"] == 4 and "AUSTRIA" in read.in_play()


def test_the_first_position_reads_back_with_its_secret_starting_units() -> None:
    variant = game_engine.game_variant("smallworld")
    read = stored_state(game_engine.initial_state("smallworld"))
    _same_position(read, game_engine.state_of(variant, game_engine.initial_state("smallworld")))
    assert read.hidden and [(h.power, h.unit, h.options, h.reveal_with) for h in read.hidden] == [
        (h.power, h.unit, tuple(h.options), h.reveal_with) for h in variant.hidden_choices]


def test_a_secret_build_reads_back_with_its_public_form() -> None:
    _variant, result, results_json, _after = _adjudicated(
        "zeus5", game_engine.initial_state("zeus5"), {"USA": ["Build F California"]})
    read = stored_result(results_json)
    assert result.hidden_builds
    assert [(h.power, h.unit, h.public, h.reveal_after) for h in read.hidden] == [
        (h.power, str(h.unit), h.public, h.reveal_after) for h in result.hidden_builds]


def test_a_result_stored_before_outcomes_and_a_rulings_list_are_read() -> None:
    read = stored_result({
        "phase": "S1901M", "next_phase": "F1901M", "units": {"france": ["A BUR"]}, "centers": {}, "dislodged": {},
        "orders": [{"power": "france", "order": "A PAR - BUR", "result": "succeeds"}],
        "rulings": [{"power": "FRANCE", "unit": "A PAR", "ruling": "holds", "order": None, "adjudicated_as": "A PAR H"}],
        "a_field_added_later": 1,
    })
    (order,) = read.orders
    assert (order.power, order.text, order.outcome, order.reason) == ("FRANCE", "A PAR - BUR", None, "")
    assert read.units == {"FRANCE": ("A BUR",)}
    assert read.rulings[0].adjudicated_as == "A PAR H" and read.rulings[0].order is None


MALFORMED_STATES: list[tuple[Any, str]] = [  # JSON documents, each wrong somewhere
    (None, "not an object"),
    ({"units": {}}, "no 'phase'"),
    ({"phase": 1901}, "'phase' is 1901"),
    ({"phase": "S1901M", "units": {"FRANCE": "A PAR"}}, "units.FRANCE"),
    ({"phase": "S1901M", "units": {"FRANCE": ["A PAR", 7]}}, "units.FRANCE"),
    ({"phase": "S1901M", "centers": ["PAR"]}, "centers"),
    ({"phase": "S1901R", "dislodged": {"AUSTRIA": {"A BUD": "GAL"}}}, "dislodged.AUSTRIA.A BUD"),
    ({"phase": "S1901R", "dislodged": {"AUSTRIA": {"A BUD": {"retreats": "SER"}}}}, "retreats"),
    ({"phase": "S1901M", "af_moves": {"NTH": "two"}}, "af_moves"),
    ({"phase": "S01M", "hidden": [{"power": "CHINA", "unit": "A PEK"}]}, "no 'reveal_with'"),
]


@pytest.mark.parametrize(("data", "where"), MALFORMED_STATES, ids=[w for _d, w in MALFORMED_STATES])
def test_a_malformed_position_is_refused_saying_where(data: Any, where: str) -> None:
    with pytest.raises(DomainError) as refused:
        stored_state(data)
    assert refused.value.code == "bad_state"
    assert "the stored position cannot be read" in refused.value.message and where in refused.value.message


_ORDER = {"power": "FRANCE", "order": "A PAR - BUR", "result": "fails", "reason": "bounce", "explanation": ""}
MALFORMED_RESULTS = [
    ([], "not an object"),
    ({"orders": []}, "no 'phase'"),
    ({"phase": "S1901M", "orders": {"FRANCE": []}}, "'orders'"),
    ({"phase": "S1901M", "orders": ["A PAR - BUR"]}, "orders[0]"),
    ({"phase": "S1901M", "orders": [{**_ORDER, "power": None}]}, "no 'power'"),
    ({"phase": "S1901M", "orders": [{**_ORDER, "outcome": {"kind": "teleported"}}]}, "teleported"),
    ({"phase": "S1901M", "orders": [{**_ORDER, "outcome": {"kind": "bounced", "by": "MUN"}}]}, "bounced"),
    ({"phase": "S1901M", "next_phase": ["F1901M"]}, "'next_phase'"),
    ({"phase": "W1939A", "hidden": [{"power": "USA", "unit": "F CAL", "reveal_after": "S1940M"}]}, "no 'public'"),
]


@pytest.mark.parametrize(("data", "where"), MALFORMED_RESULTS, ids=[w for _d, w in MALFORMED_RESULTS])
def test_malformed_results_are_refused_saying_where(data: Any, where: str) -> None:
    with pytest.raises(DomainError) as refused:
        stored_result(data)
    assert refused.value.code == "bad_state"
    assert "the stored results cannot be read" in refused.value.message and where in refused.value.message


def test_one_outcome_reads_as_the_engines_value_or_is_refused() -> None:
    assert stored_outcome({"kind": "support_cut", "by": ["RUM"]}) == game_engine.outcomes.SupportCut(by=("RUM",))
    assert stored_outcome(None) is None
    with pytest.raises(DomainError, match="bad_state|cannot be read"):
        stored_outcome({"kind": "support_cut"})
