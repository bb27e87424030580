"""Rule 8: political affairs (8.2 option selection, 8.6 the end roll).

Step D's bonus bid points are in bonus.py, the option numbers the draft prints in full
(8.7) in option_numbers.py.

The judge checks what the draft fully defines: whose turn it is, that an
option is chosen only once per turn, that its cost stays within the credit
limit (MP 5 excepted) and the end-of-political-affairs roll. The option's minor-country, US entry and principal effects depend on
the option cards and charts, which the draft does not contain: the GM enters
them (as text and as changes of money, PE, bid points and US entry).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any, cast

from .exact import NumberInput, parse_number, parse_whole, to_json_number
from .powers import POWERS, normalise_power, normalise_powers

__all__ = [
    "EndRoll",
    "end_of_political_affairs",
    "normalise_option",
    "option_family",
    "is_mp0",
    "count_previous_options",
    "within_credit_limit",
    "OPTION_STATUSES",
    "PlayStatus",
    "OptionPlay",
    "PoliticalAffairs",
    "start_political_affairs",
]


# ---------------------------------------------------------------------------
# Option identifiers

_OPTION_RE = re.compile(
    r"^\s*(?P<card>IPO|MP|CH|CW|FR|US|GE|IT|JA|RU)?\s*(?P<number>\d+)\s*(?:\(\s*(?P<part>[a-z])\s*\))?\s*$",
    re.IGNORECASE,
)


def normalise_option(option: str, power: str | None = None) -> str:
    """Canonical option id: "IPO 3", "GE 4", "MP 0(f)".

    A bare "0(f)" is a major power option (MP); a bare number needs a card.
    """
    if not isinstance(option, str):
        raise ValueError(f"not an option: {option!r}")
    match = _OPTION_RE.match(option)
    if not match:
        raise ValueError(f"not an option: {option!r} (write e.g. IPO 3, GE 4 or MP 0(f))")
    card = (match.group("card") or "").upper()
    number = int(match.group("number"))
    part = match.group("part")
    if not card:
        if number == 0:
            card = "MP"
        elif power is not None:
            card = normalise_power(power)
        else:
            raise ValueError(f"option {option!r}: say which card (IPO {number} or e.g. GE {number})")
    if card == "IPO" and not 1 <= number <= 20:
        raise ValueError(f"there are 20 international options, not IPO {number}")
    return f"{card} {number}" + (f"({part.lower()})" if part else "")


def option_family(option: str) -> str:
    """The id that may be chosen once per turn: the parts of an option are one option (0(e) and 0(f))."""
    return normalise_option(option).split("(", 1)[0]


def is_mp0(option: str) -> bool:
    """Whether the option is MP 0 (any part), which optional rule 8.6 leaves uncounted."""
    family = option_family(option)
    card, number = family.split()
    return number == "0" and card in ("MP",) + POWERS


def count_previous_options(options: Iterable[str]) -> tuple[int, int]:
    """(options, of which MP 0) among the options already played this step."""
    total = 0
    mp0 = 0
    for option in options:
        total += 1
        if is_mp0(option):
            mp0 += 1
    return total, mp0


# ---------------------------------------------------------------------------
# 8.6 the end-of-political-affairs roll


@dataclass(frozen=True)
class EndRoll:
    die: int | None
    previous_options: int
    previous_mp0: int
    rule_8_6: bool
    subtracted: int
    powers_at_war: int
    at_war_bonus: int
    all_at_war: bool
    all_at_war_bonus: int
    modified: int | None
    ends: bool
    automatic: bool = False  # the last bidder has played its final option
    passed: str | None = None  # the power that passed instead of playing (no option, no roll)

    def to_dict(self) -> dict[str, Any]:
        return {
            "die": self.die,
            "previous_options": self.previous_options,
            "previous_mp0": self.previous_mp0,
            "rule_8_6": self.rule_8_6,
            "subtracted": self.subtracted,
            "powers_at_war": self.powers_at_war,
            "at_war_bonus": self.at_war_bonus,
            "all_at_war": self.all_at_war,
            "all_at_war_bonus": self.all_at_war_bonus,
            "modified": self.modified,
            "ends": self.ends,
            "automatic": self.automatic,
            "passed": self.passed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EndRoll:
        return cls(**{key: data[key] for key in cls.__dataclass_fields__ if key in data})


def end_of_political_affairs(
    die: int | None,
    previous_options: int | Sequence[str],
    powers_at_war: int,
    all_at_war: bool,
    rule_8_6: bool = False,
    previous_mp0: int = 0,
    last_option_of_last_bidder: bool = False,
) -> EndRoll:
    """Rule 8.6: d10, -1 per option played before this one this step (with
    optional rule 8.6, MP 0 not counted), +1 if 4 or more major powers are at
    war with each other, +2 if every surviving major power is at war; a
    modified roll of 1 or less ends political affairs.

    previous_options: a count (then previous_mp0 says how many were MP 0) or
    the list of option ids played before this one. If this was the last
    bidder's final option, political affairs end automatically and no die is
    needed (die may be None).
    """
    if isinstance(previous_options, (list, tuple)):
        count, mp0 = count_previous_options(previous_options)
    else:
        count = parse_whole(cast(NumberInput, previous_options), what="previous options")
        mp0 = parse_whole(previous_mp0, what="previous MP 0 options")
    if count < 0 or mp0 < 0 or mp0 > count:
        raise ValueError(f"previous options {count} (of which MP 0: {mp0}) is impossible")
    at_war = parse_whole(powers_at_war, what="powers at war")
    if not 0 <= at_war <= len(POWERS):
        raise ValueError(f"powers at war must be 0 to {len(POWERS)}, not {at_war}")
    if not isinstance(all_at_war, bool):
        raise ValueError("all_at_war must be true or false")
    subtracted = count - mp0 if rule_8_6 else count
    at_war_bonus = 1 if at_war >= 4 else 0
    all_bonus = 2 if all_at_war else 0
    if die is None:
        if not last_option_of_last_bidder:
            raise ValueError("a die roll is needed")
        modified = None
    else:
        die = parse_whole(die, what="die")
        if not 1 <= die <= 10:
            raise ValueError(f"a d10 roll is 1 to 10, not {die}")
        modified = die - subtracted + at_war_bonus + all_bonus
    ends = bool(last_option_of_last_bidder) or (modified is not None and modified <= 1)
    return EndRoll(
        die=die,
        previous_options=count,
        previous_mp0=mp0,
        rule_8_6=bool(rule_8_6),
        subtracted=subtracted,
        powers_at_war=at_war,
        at_war_bonus=at_war_bonus,
        all_at_war=all_at_war,
        all_at_war_bonus=all_bonus,
        modified=modified,
        ends=ends,
        automatic=bool(last_option_of_last_bidder),
    )


# ---------------------------------------------------------------------------
# 8.2 / 8.4 option choice checks


def within_credit_limit(
    money: NumberInput,
    credit_limit: NumberInput,
    cost: NumberInput,
    option: str | None = None,
    paid_by_others: NumberInput = 0,
) -> bool:
    """Whether paying `cost` (less what treaty partners pay, MP 3) keeps the debt within
    the credit limit (the maximum debt, a positive number). MP 5 may always be chosen."""
    if option is not None and option_family(option) == "MP 5":
        return True
    own_share = parse_number(cost) - parse_number(paid_by_others)
    return parse_number(money) - own_share >= -parse_number(credit_limit)


class PlayStatus(StrEnum):
    """An option play's status (rule 8.4); stored in the game state's JSON as its value."""

    SUCCEEDED = "succeeded"
    PENDING = "pending"  # waits for another power's approval or a die roll
    FAILED = "failed"


OPTION_STATUSES = tuple(PlayStatus)


@dataclass(frozen=True)
class OptionPlay:
    """One option chosen in political affairs; effects are GM-entered text."""

    power: str
    option: str
    cost: Fraction = Fraction(0)
    paid_by_others: Fraction = Fraction(0)
    target: str | None = None
    minor_activated: str | None = None
    effects: str = ""
    # 8.4: an option needing another power's approval (or a die roll) is "pending";
    # its cost and effects apply only if it then "succeeded"; otherwise "failed".
    status: str = PlayStatus.SUCCEEDED

    def __post_init__(self) -> None:
        if self.status not in OPTION_STATUSES:
            raise ValueError(f"option status must be one of {', '.join(OPTION_STATUSES)}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "power": self.power,
            "option": self.option,
            "cost": to_json_number(self.cost),
            "paid_by_others": to_json_number(self.paid_by_others),
            "target": self.target,
            "minor_activated": self.minor_activated,
            "effects": self.effects,
            "status": self.status,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OptionPlay:
        return cls(
            power=normalise_power(data["power"]),
            option=normalise_option(data["option"], data["power"]),
            cost=parse_number(data.get("cost", 0)),
            paid_by_others=parse_number(data.get("paid_by_others", 0)),
            target=data.get("target"),
            minor_activated=data.get("minor_activated"),
            effects=data.get("effects", ""),
            status=data.get("status", PlayStatus.SUCCEEDED),
        )


@dataclass(frozen=True)
class PoliticalAffairs:
    """The political affairs step: bidders in initiative order, each with its
    number of options; every option played is followed by an end roll."""

    order: tuple[tuple[str, int], ...]
    plays: tuple[OptionPlay, ...] = ()
    rolls: tuple[EndRoll, ...] = ()
    ended: bool = False
    first_turn: bool = False

    # -- whose turn ---------------------------------------------------------
    @property
    def slots(self) -> tuple[str, ...]:
        """One entry per option bid for, in the order they are resolved."""
        return tuple(power for power, count in self.order for _ in range(count))

    @property
    def awaiting_roll(self) -> bool:
        """An option has been chosen and its end roll not yet made (passes have no option)."""
        return len(self.plays) > sum(1 for roll in self.rolls if not roll.passed)

    @property
    def current_power(self) -> str | None:
        """The power to choose (or, if a roll is awaited, that has just chosen) an option."""
        if self.ended:
            return None
        index = len(self.rolls)
        slots = self.slots
        return slots[index] if index < len(slots) else None

    @property
    def is_last_slot(self) -> bool:
        return len(self.rolls) == len(self.slots) - 1

    def played_by(self, power: str) -> tuple[OptionPlay, ...]:
        code = normalise_power(power)
        return tuple(play for play in self.plays if play.power == code)

    @property
    def powers_that_played(self) -> frozenset[str]:
        return frozenset(play.power for play in self.plays)

    # -- the steps ------------------------------------------------------------
    def choose(
        self,
        power: str,
        option: str,
        cost: NumberInput = 0,
        *,
        money: NumberInput | None = None,
        credit_limit: NumberInput | None = None,
        paid_by_others: NumberInput = 0,
        target: str | None = None,
        minor_activated: str | None = None,
        effects: str = "",
        pending: bool = False,
    ) -> PoliticalAffairs:
        """Record the current power's option (8.2). Raises ValueError if it may not be chosen.
        pending: the option succeeds only on a later approval or roll (8.4)."""
        code = normalise_power(power)
        if self.ended:
            raise ValueError("political affairs have ended this turn")
        if self.awaiting_roll:
            raise ValueError("roll for the end of political affairs before the next option")
        if self.current_power != code:
            raise ValueError(f"it is {self.current_power}'s turn to choose an option, not {code}'s")
        option_id = normalise_option(option, code)
        card = option_id.split()[0]
        if card not in ("IPO", "MP") and card != code:
            raise ValueError(f"{code} cannot pick an option from another major power's card ({option_id})")
        family = option_family(option_id)
        for play in self.plays:
            same = option_family(play.option) == family
            if same and (card == "IPO" or play.power == code):
                raise ValueError(f"{family} has already been chosen this turn")
        cost_value = parse_number(cost, what="option cost")
        if money is not None and credit_limit is not None:
            if not within_credit_limit(money, credit_limit, cost_value, option_id, paid_by_others):
                raise ValueError(f"{code} cannot afford {option_id}: the cost would go beyond its credit limit")
        play = OptionPlay(
            power=code,
            option=option_id,
            cost=cost_value,
            paid_by_others=parse_number(paid_by_others, what="paid by others"),
            target=target,
            minor_activated=minor_activated,
            effects=effects,
            status=PlayStatus.PENDING if pending else PlayStatus.SUCCEEDED,
        )
        return replace(self, plays=self.plays + (play,))

    def settle(self, power: str, option: str, succeeded: bool, effects: str | None = None) -> PoliticalAffairs:
        """Settle a pending option (8.4): it succeeded (its cost and effects now apply) or failed."""
        code = normalise_power(power)
        family = option_family(normalise_option(option, code))
        for index, play in enumerate(self.plays):
            if play.power == code and option_family(play.option) == family and play.status == PlayStatus.PENDING:
                settled = replace(
                    play,
                    status=PlayStatus.SUCCEEDED if succeeded else PlayStatus.FAILED,
                    effects=play.effects if effects is None else effects,
                )
                return replace(self, plays=self.plays[:index] + (settled,) + self.plays[index + 1:])
        raise ValueError(f"{code} has no pending {family} this turn")

    @property
    def pending(self) -> tuple[OptionPlay, ...]:
        return tuple(play for play in self.plays if play.status == PlayStatus.PENDING)

    def update_play(self, **changes: Any) -> PoliticalAffairs:
        """Amend the latest play (the GM records effects or the minor activated)."""
        if not self.plays:
            raise ValueError("no option has been played")
        latest = replace(self.plays[-1], **changes)
        return replace(self, plays=self.plays[:-1] + (latest,))

    def pass_turn(self, power: str) -> PoliticalAffairs:
        """The current power cannot or does not play its option (e.g. no valid target): its slot is skipped
        without an end roll."""
        code = normalise_power(power)
        if self.ended or self.awaiting_roll or self.current_power != code:
            raise ValueError(f"{code} has no option to pass")
        skip = EndRoll(
            die=None, previous_options=len(self.plays), previous_mp0=0, rule_8_6=False, subtracted=0,
            powers_at_war=0, at_war_bonus=0, all_at_war=False, all_at_war_bonus=0, modified=None,
            ends=self.is_last_slot, automatic=self.is_last_slot, passed=code,
        )
        return replace(self, rolls=self.rolls + (skip,), ended=skip.ends)

    def roll_end(
        self,
        die: int | None,
        powers_at_war: int,
        all_at_war: bool,
        rule_8_6: bool = False,
    ) -> PoliticalAffairs:
        """The end-of-political-affairs roll after the current option (no die needed after the last)."""
        if self.ended:
            raise ValueError("political affairs have already ended")
        if not self.awaiting_roll:
            raise ValueError("no option awaits its end roll")
        previous = [play.option for play in self.plays[:-1]]
        roll = end_of_political_affairs(
            die,
            previous,
            powers_at_war,
            all_at_war,
            rule_8_6=rule_8_6,
            last_option_of_last_bidder=self.is_last_slot,
        )
        return replace(self, rolls=self.rolls + (roll,), ended=roll.ends)

    # -- JSON -----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "order": [[power, count] for power, count in self.order],
            "plays": [play.to_dict() for play in self.plays],
            "rolls": [roll.to_dict() for roll in self.rolls],
            "ended": self.ended,
            "first_turn": self.first_turn,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PoliticalAffairs:
        return cls(
            order=tuple((normalise_power(power), int(count)) for power, count in data["order"]),
            plays=tuple(OptionPlay.from_dict(item) for item in data.get("plays", ())),
            rolls=tuple(EndRoll.from_dict(item) for item in data.get("rolls", ())),
            ended=bool(data.get("ended", False)),
            first_turn=bool(data.get("first_turn", False)),
        )


def start_political_affairs(
    track: Sequence[str],
    options: Mapping[str, int] | None = None,
    first_turn: bool = False,
) -> PoliticalAffairs:
    """The political affairs step for this turn's track.

    options: the number of options each bidder bid for (powers absent did not
    bid and cannot play an option). On the first turn (Jan/Feb 1936) there is
    no bidding: every power on the track plays one option, in track order.
    """
    powers = normalise_powers(track)
    if first_turn:
        order = tuple((power, 1) for power in powers)
    else:
        counts = {normalise_power(power): parse_whole(n, what=f"{power} options") for power, n in (options or {}).items()}
        unknown = set(counts) - set(powers)
        if unknown:
            raise ValueError(f"not on the track: {', '.join(sorted(unknown))}")
        order = tuple((power, counts[power]) for power in powers if counts.get(power, 0) > 0)
    return PoliticalAffairs(order=order, ended=not order, first_turn=first_turn)
