"""A game's options, read from ``game.settings`` (JSON) once into a typed, checked value.

``game.settings`` holds the options the GM sets (``SET NMR``, ``SET PRESS``, the timings, the
dashboard's settings form, the new-game form, the command line's ``judge game create``) and,
beside them, what the judge keeps there for the game (``STATE_KEYS``: the engine's rule options,
a DoD III game's set-up, the GM's notes for the next results, absence grants).  ``options_of``
decodes the options into a ``GameOptions``, its absent keys the defaults; a key that is neither,
or a value of the wrong kind, is refused with ``DomainError("unknown_option" / "bad_option")``
saying which.

The options are typed: the NMR policy is a small sum type (``Cd | Hold | Wait | Dismiss |
Excuse(n)``), the layout and the press rule enums.  There is one writer: ``GameOptions.with_``
makes the changed options and checks them (through the same decoder), and ``store_options`` puts
them in ``game.settings`` beside the judge's own keys, so what a reader meets is always a game the
judge wrote.  The stored JSON keeps its shape (``"nmr": "excuse:2"``): old games load.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, TypeAlias
from zoneinfo import ZoneInfo

from app.db.models import Game
from app.services.errors import DomainError
from app.services.ruleset.phases import PhaseKind, PhaseName

__all__ = ["ABANDON_AFTER", "DEFAULT_SETTINGS", "DRAW_EXPIRIES", "LAYOUTS", "NMR_POLICIES", "ORDER_MODES", "PHASE_KINDS",
           "PRESS_RULES", "STATE_KEYS", "TAKEOVERS", "Cd", "Dismiss", "Excuse", "GameOptions", "Hold", "Layout",
           "NmrPolicy", "PhaseTiming", "PressRule", "Wait", "nmr_policy", "options_of", "parse_days",
           "reminder_hours_of", "store_options"]


class Layout(StrEnum):
    """How results are printed: as the judges print them, or the zine's."""

    JUDGE = "judge"
    ZINE = "zine"


class PressRule(StrEnum):
    """``SET PRESS``: the kinds of press a game allows (``postal``: held until the results)."""

    NONE = "none"
    WHITE = "white"
    GREY = "grey"
    WHITE_GREY = "white/grey"
    POSTAL = "postal"


@dataclass(frozen=True)
class Cd:
    """A power that misses a deadline goes to civil disorder (its units hold)."""

    text: ClassVar[str] = "cd"


@dataclass(frozen=True)
class Hold:
    """A missed deadline is counted, nothing more: the units hold, no grace is given."""

    text: ClassVar[str] = "hold"


@dataclass(frozen=True)
class Wait:
    """A missed deadline abandons the power and the game waits for a new player."""

    text: ClassVar[str] = "wait"


@dataclass(frozen=True)
class Dismiss:
    """A player who misses a deadline is dismissed (the power left open)."""

    text: ClassVar[str] = "dismiss"


@dataclass(frozen=True)
class Excuse:
    """The first ``misses`` missed deadlines of a power are excused (the deadline moves); then ``Cd``."""

    misses: int

    @property
    def text(self) -> str:
        return f"excuse:{self.misses}"


NmrPolicy: TypeAlias = Cd | Hold | Wait | Dismiss | Excuse
_PLAIN_POLICIES: dict[str, NmrPolicy] = {"cd": Cd(), "hold": Hold(), "wait": Wait(), "dismiss": Dismiss()}


def nmr_policy(text: str) -> NmrPolicy | None:
    """``cd``, ``hold``, ``wait``, ``dismiss`` or ``excuse:N`` as the policy; None when it is none of them."""
    word = text.strip().lower()
    if word in _PLAIN_POLICIES:
        return _PLAIN_POLICIES[word]
    head, colon, count = word.partition(":")
    if head == "excuse" and colon and count.isdigit():
        return Excuse(int(count))
    return None


LAYOUTS = tuple(layout.value for layout in Layout)
PRESS_RULES = tuple(rule.value for rule in PressRule)
ORDER_MODES = ("per_unit", "whole_set")
NMR_POLICIES = tuple(_PLAIN_POLICIES)  # and excuse:N
TAKEOVERS = ("open", "approval")
DRAW_EXPIRIES = ("never", "phase")  # a draw vote (and a concession) stands until withdrawn, or for one phase
PHASE_KINDS = tuple(kind.word for kind in PhaseKind)  # the timings' keys: movement, retreat, adjustment
ABANDON_AFTER = 2  # missed deadlines in a row that leave a seat open for a takeover
STATE_KEYS = frozenset({
    "rules",  # the engine's rule options (SET RULE), checked by the engine port
    "dod3",  # a Days of Decision III game's set-up and dice (dod3/store.py)
    "notes",  # read past only: the GM's notes are rows now (gm_notes); a game stored before moves them there
    "absence_grants",  # the days of absence the GM granted each power (GRANT ABSENCE)
    "ending",  # how the game ended: solo, draw, concession, the GM's statement (results/ending.py)
})

DEFAULT_SETTINGS: dict[str, Any] = {  # what a new game stores (its timings stay the defaults below)
    "layout": "judge",
    "orders": "per_unit",
    "nmr": "cd",
    "postal_press": False,
    "observer_press": False,  # SET PRESS ... OBSERVERS: observers may send (white) press
    "timezone": "UTC",
    "reminder_hours": 6,
    "early": True,
    "early_minutes": 20,  # the quiet period after the last change before a ready phase runs early
}

_AT = re.compile(r"^([01]?\d|2[0-3]):[0-5]\d$")
WEEK = "SMTWTFS"  # njudge writes the week from Sunday: SMTWTFS, '-' for a day off


def parse_days(pattern: str) -> str | None:
    """``-MTWTF-`` (no weekends) -> the pattern; ``ALL`` -> None (every day)."""
    text = pattern.strip().upper()
    if text in ("ALL", "ANY", "NONE", "OFF", WEEK):
        return None
    if len(text) != 7 or any(c not in ("-", w) for c, w in zip(text, WEEK)) or text == "-------":
        raise ValueError("DAYS takes seven letters from Sunday, a '-' for a day off: -MTWTF-")
    return text


@dataclass(frozen=True)
class PhaseTiming:
    """The deadlines of one kind of phase."""

    next_hours: float  # from the start of a phase to its deadline
    grace_hours: float  # after the deadline, for the late
    at: str | None = None  # ``hh:mm``: a deadline falls at this time of day (the game's zone)
    days: str | None = None  # njudge's DAYS pattern (``-MTWTF-``): the weekdays a deadline may fall on


_TIMING_DEFAULTS = {PhaseKind.MOVEMENT.word: PhaseTiming(48.0, 24.0), PhaseKind.RETREAT.word: PhaseTiming(24.0, 12.0),
                    PhaseKind.ADJUSTMENT.word: PhaseTiming(24.0, 12.0)}


@dataclass(frozen=True)
class GameOptions:
    """What the GM chose for a game (or the judge's default)."""

    layout: Layout = Layout.JUDGE
    orders: str = "per_unit"  # ORDER_MODES: whole_set: a mail with an error stores none of its orders
    nmr: NmrPolicy = Cd()
    postal_press: bool = False  # press is held until the results
    observer_press: bool = False
    timezone: str = "UTC"
    reminder_hours: float = 6.0  # before a deadline (0: none)
    early: bool = True  # a phase whose orders are all in runs before its deadline
    early_minutes: float = 20.0  # of quiet after the last change
    takeover: str = "approval"  # TAKEOVERS: an open seat is taken by anyone, or with the GM's approval
    abandon_after: int = ABANDON_AFTER
    auto_start: bool = True  # the game starts when the last power is taken
    draw_expires: str = "never"  # DRAW_EXPIRIES: njudge's votes are good for one phase (SET DRAW EXPIRES PHASE)
    timings: Mapping[str, PhaseTiming] = field(default_factory=lambda: dict(_TIMING_DEFAULTS))

    def timing(self, phase_code: str) -> PhaseTiming:
        """The timing of the kind of phase ``phase_code`` is (``S1901M``: movement)."""
        return self.timings[PhaseName(phase_code).kind.word]

    @property
    def whole_set(self) -> bool:
        return self.orders == "whole_set"

    @property
    def excused_misses(self) -> int | None:
        """N under the NMR policy ``Excuse(N)``, else None."""
        return self.nmr.misses if isinstance(self.nmr, Excuse) else None

    @property
    def misses_to_abandon(self) -> int:
        """How many missed deadlines in a row abandon a power (1 under the NMR policy ``Wait``)."""
        return 1 if isinstance(self.nmr, Wait) else self.abandon_after

    def with_(self, **changes: Any) -> GameOptions:
        """These options with ``changes`` (typed values: ``nmr=Excuse(2)``, ``layout=Layout.ZINE``,
        ``timings={"movement": PhaseTiming(...)}``: the kinds given replace theirs); refused with a
        DomainError naming the option when a value is not one a game may have.  The one writer."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise DomainError("unknown_option", f"unknown game option '{sorted(unknown)[0]}'")
        if "timings" in changes:
            changes["timings"] = {**self.timings, **changes["timings"]}
        return GameOptions.decode(dataclasses.replace(self, **changes).encode())

    def encode(self) -> dict[str, Any]:
        """The options as ``game.settings`` stores them (the JSON of the decoders below)."""
        return {
            "layout": str(self.layout), "orders": self.orders, "nmr": self.nmr.text,
            "postal_press": self.postal_press, "observer_press": self.observer_press, "timezone": self.timezone,
            "reminder_hours": _number(self.reminder_hours), "early": self.early,
            "early_minutes": _number(self.early_minutes), "takeover": self.takeover,
            "abandon_after": self.abandon_after, "auto_start": self.auto_start, "draw_expires": self.draw_expires,
            "timing": {kind: {"next_hours": _number(t.next_hours), "grace_hours": _number(t.grace_hours),
                              "at": t.at, "days": t.days} for kind, t in self.timings.items()},
        }

    @classmethod
    def decode(cls, settings: Mapping[str, Any] | None) -> GameOptions:
        """The options of ``settings`` (a game's JSON), refused with a DomainError naming the key."""
        found: dict[str, Any] = {}
        for key, value in (settings or {}).items():
            if key in STATE_KEYS:
                continue
            decode = _DECODERS.get(key)
            if decode is None:
                raise DomainError("unknown_option", f"unknown game option '{key}'")
            found[key] = decode(key, value)
        timings = found.pop("timing", None)
        return cls(**found, timings={**_TIMING_DEFAULTS, **(timings or {})})


def _number(value: float) -> float | int:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def options_of(game: Game) -> GameOptions:
    """The game's options, its own or the judge's defaults."""
    return GameOptions.decode(game.settings)


def reminder_hours_of(settings: Mapping[str, Any] | None) -> float:
    """``options_of(game).reminder_hours`` from the settings alone, the other options not decoded:
    the scheduler looks at every active game's reminder each tick (``turns/deadlines.py``)."""
    value = (settings or {}).get("reminder_hours")
    return GameOptions.reminder_hours if value is None else _hours("reminder_hours", value)


def store_options(game: Game, options: GameOptions) -> None:
    """Write ``options`` (made by ``GameOptions.with_``, so checked) into the game's settings, beside
    the keys the judge keeps there for the game."""
    kept = {key: value for key, value in (game.settings or {}).items() if key in STATE_KEYS}
    game.settings = {**kept, **options.encode()}


# -- the decoders, one a key ---------------------------------------------------------------------


def _bad(key: str, what: str, value: object) -> DomainError:
    return DomainError("bad_option", f"game option '{key}' is {what} (not {value!r})")


def _one_of(*choices: str) -> Any:
    def decode(key: str, value: object) -> str:
        if value not in choices:
            raise _bad(key, "one of " + ", ".join(choices), value)
        return str(value)
    return decode


def _flag(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _bad(key, "true or false", value)
    return value


def _hours(key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise _bad(key, "a number of 0 or more", value)
    return float(value)


def _count(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _bad(key, "a whole number of 1 or more", value)
    return value


def _nmr(key: str, value: object) -> NmrPolicy:
    policy = nmr_policy(value) if isinstance(value, str) and value == value.strip().lower() else None
    if policy is None:
        raise _bad(key, "cd, hold, wait, dismiss or excuse:N", value)
    return policy


def _layout(key: str, value: object) -> Layout:
    if value not in LAYOUTS:
        raise _bad(key, "one of " + ", ".join(LAYOUTS), value)
    return Layout(value)


def _zone(key: str, value: object) -> str:
    try:
        if not isinstance(value, str) or not value:
            raise ValueError(value)
        ZoneInfo(value)
    except Exception as error:
        raise _bad(key, "a time zone, like UTC or Europe/Paris", value) from error
    return value


def _timing(key: str, value: object) -> dict[str, PhaseTiming]:
    if not isinstance(value, Mapping):
        raise _bad(key, "the timings of movement, retreat and adjustment phases", value)
    timings = {}
    for kind, entry in value.items():
        if kind not in PHASE_KINDS or not isinstance(entry, Mapping):
            raise _bad(key, "the timings of movement, retreat and adjustment phases", {kind: entry})
        default = _TIMING_DEFAULTS[kind]
        extra = set(entry) - {"next_hours", "grace_hours", "at", "days"}
        if extra:
            raise DomainError("unknown_option", f"unknown {kind} timing '{sorted(extra)[0]}'")
        at, days = entry.get("at"), entry.get("days")
        if at is not None and not (isinstance(at, str) and _AT.match(at)):
            raise _bad(f"{kind} at", "a time of day, hh:mm", at)
        if days is not None:
            try:
                if not isinstance(days, str) or parse_days(days) != days:
                    raise ValueError(days)
            except ValueError as error:
                raise _bad(f"{kind} days", "seven letters from Sunday, a '-' for a day off", days) from error
        timings[kind] = PhaseTiming(
            next_hours=_hours(f"{kind} next_hours", entry.get("next_hours", default.next_hours)),
            grace_hours=_hours(f"{kind} grace_hours", entry.get("grace_hours", default.grace_hours)),
            at=at, days=days)
    return timings


_DECODERS: dict[str, Any] = {
    "layout": _layout, "orders": _one_of(*ORDER_MODES), "nmr": _nmr, "postal_press": _flag,
    "observer_press": _flag, "timezone": _zone, "reminder_hours": _hours, "early": _flag,
    "early_minutes": _hours, "takeover": _one_of(*TAKEOVERS), "abandon_after": _count, "auto_start": _flag,
    "timing": _timing, "draw_expires": _one_of(*DRAW_EXPIRIES),
}
