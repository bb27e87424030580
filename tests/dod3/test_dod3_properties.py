"""Property checks (hypothesis) of rounding, initiative ordering and dice."""

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from app.dod3.dice import DiceRoller, verify_rolls  # noqa: E402
from app.dod3.exact import parse_number, round_rule, to_json_number  # noqa: E402
from app.dod3.initiative import apply_move_downs, compute_initiative, move_down_order  # noqa: E402
from app.dod3.powers import INITIAL_TRACK  # noqa: E402
from tests.support.hypothesis_profiles import examples  # noqa: E402

fractions = st.builds(Fraction, st.integers(-10**6, 10**6), st.integers(1, 1000))


@given(fractions)
def test_round_rule_is_half_away_from_zero(x):
    sign = 1 if x >= 0 else -1
    assert round_rule(x) == sign * math.floor(abs(x) + Fraction(1, 2))
    assert round_rule(-x) == -round_rule(x)
    assert abs(round_rule(x) - x) <= Fraction(1, 2)


@given(st.decimals(min_value=-10**6, max_value=10**6, places=3, allow_nan=False, allow_infinity=False))
def test_round_rule_matches_decimal_round_half_up(d):
    assert round_rule(d) == int(d.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@given(fractions)
def test_json_numbers_round_trip(x):
    assert parse_number(to_json_number(x)) == x


bids_strategy = st.dictionaries(
    st.sampled_from(INITIAL_TRACK),
    st.tuples(st.integers(0, 12), st.integers(1, 3)).map(lambda t: (t[0], t[1] if t[0] else 1)),
)


@settings(max_examples=examples(300))
@given(st.permutations(INITIAL_TRACK), bids_strategy, st.permutations(range(8)))
def test_initiative_invariants(previous, bids, pes):
    pe = dict(zip(INITIAL_TRACK, pes))  # distinct PEs: no tie needs last turn's order
    result = compute_initiative(previous, bids, pe)
    assert sorted(result.track) == sorted(INITIAL_TRACK)
    flags = [entry.bidder for entry in result.entries]
    assert flags == sorted(flags, reverse=True)  # every bidder before every non-bidder
    assert result.last_card == (sum(flags) or None)
    for upper, lower in zip(result.entries, result.entries[1:]):
        if upper.bidder == lower.bidder:
            assert (upper.final_bid, upper.modified_pe) >= (lower.final_bid, lower.modified_pe)
    # every Democrat moving as far down as allowed keeps the bidders on top
    limits = {}
    for power in move_down_order(result):
        limits[power] = {"to": sum(flags) if result.entry(power).bidder else 8}
    movable = {p: spec for p, spec in limits.items() if spec["to"] > result.entry(p).position}
    moved = apply_move_downs(result, movable)
    moved_flags = [entry.bidder for entry in moved.entries]
    assert moved_flags == sorted(moved_flags, reverse=True)
    assert moved.last_card == result.last_card


@settings(max_examples=examples(50))
@given(st.binary(min_size=32, max_size=32), st.lists(st.text(alphabet="abcdefgh XYZ-", min_size=1, max_size=12), max_size=20))
def test_dice_verify(seed_bytes, purposes):
    roller = DiceRoller(seed=seed_bytes.hex(), game="g", turn="Jan-Feb 1936")
    for purpose in purposes:
        assert 1 <= roller.roll(purpose) <= 10
    assert verify_rolls(seed_bytes.hex(), roller.commitment, roller.rolls) == []
