"""Verifiable dice: commit, roll, reveal, verify.

Scheme (documented in docs/dod3.md so players can check it themselves):

1. Before a turn the server picks a secret seed (32 random bytes) and
   publishes its commitment ``SHA256(seed)`` in hex (e.g. in the turn's
   deadline notice).
2. Every roll is ``HMAC-SHA256(key=seed, msg="<game>/<turn>/<purpose>/<counter>")``,
   read as a big-endian integer, modulo the die size, plus 1. ``counter``
   counts the rolls made with the seed (0, 1, 2, ...), so no two rolls share a
   message. The bias of reducing a 256-bit number modulo 10 is below 2**-250.
3. After the turn the server reveals the seed with the roll log; anyone can
   check that ``SHA256(seed)`` is the published commitment and recompute
   every roll (``verify_rolls``).

Because the seed is committed before the bids and the messages are fixed by
the game, the server cannot choose a favourable seed after seeing the orders,
and the players cannot predict a roll before the reveal.

This module does no I/O; the only randomness is the seed, which the caller
supplies (``generate_seed`` takes an injectable byte source).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = [
    "Roll",
    "Roller",
    "generate_seed",
    "commitment",
    "roll_message",
    "derive_roll",
    "DiceRoller",
    "FixedRoller",
    "verify_roll",
    "verify_rolls",
]


def generate_seed(token_bytes: Callable[[int], bytes] = secrets.token_bytes) -> str:
    """A new secret seed as 64 hex digits (the byte source can be injected for tests)."""
    return token_bytes(32).hex()


def _seed_bytes(seed_hex: str) -> bytes:
    try:
        raw = bytes.fromhex(seed_hex)
    except (TypeError, ValueError) as error:
        raise ValueError("the seed must be hex digits") from error
    if len(raw) < 16:
        raise ValueError("the seed must be at least 16 bytes (32 hex digits)")
    return raw


def commitment(seed_hex: str) -> str:
    """SHA256 of the seed's bytes, in hex: published before the rolls."""
    return hashlib.sha256(_seed_bytes(seed_hex)).hexdigest()


def _clean(part: str) -> str:
    text = str(part)
    if "/" in text:
        raise ValueError(f"a roll's game, turn and purpose may not contain '/': {text!r}")
    return text


def roll_message(game: str, turn: str, purpose: str, counter: int) -> str:
    return f"{_clean(game)}/{_clean(turn)}/{_clean(purpose)}/{int(counter)}"


def derive_roll(seed_hex: str, game: str, turn: str, purpose: str, counter: int, sides: int = 10) -> tuple[int, str]:
    """(result 1..sides, HMAC hex) for one roll."""
    if sides < 2:
        raise ValueError("a die has at least 2 sides")
    message = roll_message(game, turn, purpose, counter)
    mac = hmac.new(_seed_bytes(seed_hex), message.encode("utf-8"), hashlib.sha256).hexdigest()
    return int(mac, 16) % sides + 1, mac


@dataclass(frozen=True)
class Roll:
    game: str
    turn: str
    purpose: str
    counter: int
    sides: int
    result: int
    mac: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "turn": self.turn,
            "purpose": self.purpose,
            "counter": self.counter,
            "sides": self.sides,
            "result": self.result,
            "mac": self.mac,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Roll:
        return cls(
            game=str(data["game"]),
            turn=str(data["turn"]),
            purpose=str(data["purpose"]),
            counter=int(data["counter"]),
            sides=int(data.get("sides", 10)),
            result=int(data["result"]),
            mac=str(data.get("mac", "")),
        )


class Roller(Protocol):
    """What rules code needs from a die: a d10 (or other) roll for a stated purpose."""

    def roll(self, purpose: str, sides: int = 10) -> int: ...


@dataclass
class DiceRoller:
    """Rolls from a committed seed for one game turn, logging every roll.

    Mutable on purpose (it counts rolls); its state is (seed, game, turn,
    rolls), all JSON-serialisable via to_dict/from_dict. Keep the seed secret
    until the turn's results are published; publish ``commitment`` before.
    """

    seed: str
    game: str
    turn: str
    rolls: list[Roll] = field(default_factory=list)

    def __post_init__(self) -> None:
        _seed_bytes(self.seed)
        _clean(self.game)
        _clean(self.turn)

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def roll(self, purpose: str, sides: int = 10) -> int:
        counter = len(self.rolls)
        result, mac = derive_roll(self.seed, self.game, self.turn, purpose, counter, sides)
        self.rolls.append(Roll(self.game, self.turn, purpose, counter, sides, result, mac))
        return result

    def to_dict(self, reveal: bool = True) -> dict[str, Any]:
        """With reveal=False the seed is left out (for reports before the turn is over)."""
        data: dict[str, Any] = {
            "game": self.game,
            "turn": self.turn,
            "commitment": self.commitment,
            "rolls": [roll.to_dict() for roll in self.rolls],
        }
        if reveal:
            data["seed"] = self.seed
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DiceRoller:
        roller = cls(seed=data["seed"], game=data["game"], turn=data["turn"],
                     rolls=[Roll.from_dict(item) for item in data.get("rolls", ())])
        if "commitment" in data and data["commitment"] != roller.commitment:
            raise ValueError("the stored commitment does not match the seed")
        return roller


@dataclass
class FixedRoller:
    """A roller returning given results in turn (for GM-entered physical rolls and tests)."""

    results: list[int]
    log: list[tuple[str, int]] = field(default_factory=list)

    def roll(self, purpose: str, sides: int = 10) -> int:
        if not self.results:
            raise ValueError(f"no die roll left for {purpose}")
        result = self.results.pop(0)
        if not 1 <= result <= sides:
            raise ValueError(f"a d{sides} roll is 1 to {sides}, not {result}")
        self.log.append((purpose, result))
        return result


def verify_roll(seed_hex: str, roll: Roll | Mapping[str, Any]) -> bool:
    item = roll if isinstance(roll, Roll) else Roll.from_dict(roll)
    result, mac = derive_roll(seed_hex, item.game, item.turn, item.purpose, item.counter, item.sides)
    return result == item.result and (not item.mac or hmac.compare_digest(mac, item.mac))


def verify_rolls(
    seed_hex: str,
    published_commitment: str,
    rolls: Iterable[Roll | Mapping[str, Any]],
) -> list[str]:
    """Check a revealed seed against its commitment and recompute each roll.
    Returns the problems found (an empty list means everything checks out)."""
    problems: list[str] = []
    try:
        actual = commitment(seed_hex)
    except ValueError as error:
        return [str(error)]
    if not hmac.compare_digest(actual, published_commitment.strip().lower()):
        problems.append("the seed does not match the published commitment")
    counters: set[tuple[str, str, int]] = set()
    for index, roll in enumerate(rolls):
        item = roll if isinstance(roll, Roll) else Roll.from_dict(roll)
        key = (item.game, item.turn, item.counter)
        if key in counters:
            problems.append(f"roll {index}: counter {item.counter} used twice")
        counters.add(key)
        if not verify_roll(seed_hex, item):
            expected, _ = derive_roll(seed_hex, item.game, item.turn, item.purpose, item.counter, item.sides)
            problems.append(
                f"roll {index} ({item.purpose}, counter {item.counter}): recorded {item.result}, the seed gives {expected}"
            )
    return problems
