"""Password hashes: argon2 with the production parameters (its own tests, marked ``argon2``), and
the cheap argon2 every other test runs with (tests/conftest.py), which only tests can reach."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from app.services.kernel import security

PRODUCTION = "$argon2id$v=19$m=19456,t=2,p=1$"


@pytest.mark.argon2
def test_production_hashes_are_argon2id_at_the_production_cost() -> None:
    hashed = security.hash_password("correct horse")
    assert hashed.startswith(PRODUCTION)
    assert security.verify_password(hashed, "correct horse")
    assert not security.verify_password(hashed, "wrong horse")
    assert not security.verify_password("not a hash", "correct horse")


def test_other_tests_hash_cheaply_and_a_production_hasher_verifies_them() -> None:
    hashed = security.hash_password("correct horse")
    assert hashed.startswith("$argon2id$v=19$m=8,t=1,p=1$")  # microseconds, not 45 ms
    # `judge serve` started by a test (a process of its own) verifies them with its own hasher
    assert PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1).verify(hashed, "correct horse")


def test_the_cheap_hasher_is_no_setting_of_the_judge() -> None:
    from app.settings import Settings

    assert not [name for name in Settings.model_fields if "hash" in name or "argon" in name]
