"""Passwords (argon2) and personal reply tokens."""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = ["hash_password", "new_token", "verify_password"]

# Modest parameters: a judge verifies a password for every mail it gets.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def new_token(length: int = 20) -> str:
    """A token for a one-time or personal reply address, or a code to type back: lowercase letters
    and digits only, none that read alike (no l, o, 0, 1)."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(length))
