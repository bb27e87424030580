"""Verifiable dice: commit-reveal with HMAC-SHA256."""

import hashlib
import hmac
from collections import Counter

import pytest

from app.dod3.dice import (
    DiceRoller,
    FixedRoller,
    Roll,
    commitment,
    derive_roll,
    generate_seed,
    roll_message,
    verify_roll,
    verify_rolls,
)

SEED = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"


def test_commitment_is_sha256_of_seed_bytes():
    assert commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


def test_roll_is_hmac_of_game_turn_purpose_counter():
    expected_mac = hmac.new(bytes.fromhex(SEED), b"g1/Mar-Apr 1936/end roll/0", hashlib.sha256).hexdigest()
    result, mac = derive_roll(SEED, "g1", "Mar-Apr 1936", "end roll", 0)
    assert mac == expected_mac
    assert result == int(expected_mac, 16) % 10 + 1
    assert 1 <= result <= 10


def test_messages_cannot_be_ambiguous():
    assert roll_message("g", "t", "p", 3) == "g/t/p/3"
    with pytest.raises(ValueError):
        roll_message("g", "Mar/Apr 1936", "p", 0)


def test_roller_logs_and_verifies():
    roller = DiceRoller(seed=SEED, game="g1", turn="Mar-Apr 1936")
    published = roller.commitment
    results = [roller.roll("weather"), roller.roll("end roll after IT IPO 1"), roller.roll("end roll after RU RU 1")]
    assert [r.counter for r in roller.rolls] == [0, 1, 2]
    assert [r.result for r in roller.rolls] == results
    assert verify_rolls(SEED, published, [r.to_dict() for r in roller.rolls]) == []
    # deterministic: the same seed gives the same rolls
    again = DiceRoller(seed=SEED, game="g1", turn="Mar-Apr 1936")
    assert [again.roll(r.purpose) for r in roller.rolls] == results


def test_verification_catches_tampering():
    roller = DiceRoller(seed=SEED, game="g1", turn="May-Jun 1936")
    roller.roll("weather")
    roller.roll("end roll")
    rolls = [r.to_dict() for r in roller.rolls]
    bad = dict(rolls[1], result=rolls[1]["result"] % 10 + 1)
    problems = verify_rolls(SEED, roller.commitment, [rolls[0], bad])
    assert len(problems) == 1 and "recorded" in problems[0]
    other_seed = "ff" * 32
    assert "commitment" in verify_rolls(other_seed, roller.commitment, rolls)[0]
    assert verify_rolls(SEED, roller.commitment, [rolls[0], rolls[0]])  # counter reused
    assert not verify_roll(SEED, Roll.from_dict(dict(rolls[0], purpose="changed")))


def test_roller_state_round_trip_and_hidden_seed():
    roller = DiceRoller(seed=SEED, game="g1", turn="Jan-Feb 1936")
    roller.roll("weather")
    public = roller.to_dict(reveal=False)
    assert "seed" not in public and public["commitment"] == commitment(SEED)
    restored = DiceRoller.from_dict(roller.to_dict())
    assert restored == roller
    with pytest.raises(ValueError):
        DiceRoller.from_dict(dict(roller.to_dict(), commitment="00" * 32))


def test_distribution_is_roughly_uniform():
    roller = DiceRoller(seed=SEED, game="g", turn="t")
    counts = Counter(roller.roll("test") for _ in range(5000))
    assert set(counts) == set(range(1, 11))
    assert all(380 < n < 620 for n in counts.values())


def test_seed_generation_and_validation():
    assert generate_seed(lambda n: b"\x01" * n) == "01" * 32
    assert len(generate_seed()) == 64
    with pytest.raises(ValueError):
        commitment("abc")
    with pytest.raises(ValueError):
        commitment("00" * 8)  # too short


def test_fixed_roller_for_physical_rolls():
    roller = FixedRoller([6, 3])
    assert roller.roll("end roll") == 6 and roller.roll("weather") == 3
    assert roller.log == [("end roll", 6), ("weather", 3)]
    with pytest.raises(ValueError):
        roller.roll("more")
    with pytest.raises(ValueError):
        FixedRoller([11]).roll("x")
