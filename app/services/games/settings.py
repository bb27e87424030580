"""A game's settings as the GM changes them on the dashboard (issue 21.13): grace, NMR policy,
TAKEOVER policy, press rules (``postal`` included), phase timings, early processing, orders mode,
time zone and reminders.  Each change goes through the use case of its mail command (``SET ...``:
``gm.set_option``, ``gm.set_timing``); values equal to the game's are left alone, so the audit log
names only what changed.  The variants a game may be created with are listed here too."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.db.models import Game
from app.db.statuses import GameStatus
from app.dod3.powers import GROUPING_PRESETS
from app.services.errors import DomainError
from app.services.games import gm
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.ruleset.catalogue import offered_variants
from app.services.ruleset.options import PHASE_KINDS, options_of, parse_days

__all__ = ["DOD3_GROUPINGS", "PHASE_KINDS", "PRESS_RULES", "GameSettings", "PhaseTiming", "SettingsChange",
           "change_settings", "default_settings", "game_variants", "settings_of"]

PRESS_RULES = ("white", "grey", "white/grey", "none", "postal")
DOD3_GROUPINGS = ("2", *GROUPING_PRESETS)  # rule 3.1; "2" needs the Soviets' side
_AT = re.compile(r"^([01]?\d|2[0-3]):[0-5]\d$")


def game_variants() -> tuple[str, ...]:
    """The names the new-game form offers (``catalogue.offered_variants``: each map variant's
    folder declares its offer), then Days of Decision III (``DOD3 CREATE``)."""
    return tuple(offer.name for offer in offered_variants())


@dataclass(frozen=True)
class PhaseTiming:
    kind: str  # movement | retreat | adjustment
    next_hours: float  # from the start of a phase to its deadline
    grace_hours: float
    at: str  # hh:mm deadlines fall at ("": any time)
    days: str  # njudge's DAYS pattern ("": every day)


@dataclass(frozen=True)
class GameSettings:
    nmr: str
    takeover: str
    press: str  # none | white | grey | white/grey | postal
    orders: str
    early: str  # minutes of quiet before a ready phase runs, or "off"
    timezone: str
    reminder_hours: float
    timing: tuple[PhaseTiming, ...]


def settings_of(game: Game) -> GameSettings:
    """The game's settings, its own or the judge's defaults."""
    options = options_of(game)
    timings = options.timings
    rows = tuple(PhaseTiming(kind, timings[kind].next_hours, timings[kind].grace_hours, timings[kind].at or "",
                             timings[kind].days or "") for kind in PHASE_KINDS)
    return GameSettings(
        nmr=options.nmr, takeover=options.takeover, press="postal" if options.postal_press else game.press,
        orders=options.orders, early=f"{options.early_minutes:g}" if options.early else "off",
        timezone=options.timezone, reminder_hours=options.reminder_hours, timing=rows)


@dataclass(frozen=True)
class SettingsChange:
    """What the GM asked for; ``None`` (or a field left out) keeps the game's value."""

    nmr: str | None = None
    takeover: str | None = None
    press: str | None = None
    orders: str | None = None
    early: str | None = None
    timezone: str | None = None
    reminder_hours: str | None = None
    timing: tuple[tuple[str, str, str], ...] = ()  # (kind, next_hours|grace_hours|at|days, text)


def _hours(text: str) -> float:
    try:
        value = float(text.strip().lower().removesuffix("h"))
    except ValueError as error:
        raise DomainError("bad_hours", f"hours are a number, like 48 (not '{text}')") from error
    if value != value:
        raise DomainError("bad_hours", "hours are a number, like 48")
    return value


def _timing_value(key: str, text: str) -> float | str | None:
    if key in ("next_hours", "grace_hours"):
        return _hours(text)
    if key == "at":
        if not text.strip() or text.strip().lower() in ("none", "off"):
            return None
        if not _AT.match(text.strip()):
            raise DomainError("bad_time", f"a time of day is hh:mm, like 20:00 (not '{text}')")
        return text.strip()
    try:
        return parse_days(text) if text.strip() else None
    except ValueError as error:
        raise DomainError("bad_days", str(error)) from error


def _same(current: object, wanted: str) -> bool:
    if isinstance(current, float):
        try:
            return float(wanted) == current
        except ValueError:
            return False
    return str(current).lower() == wanted.strip().lower()


def change_settings(judge: Judge, db: Session, actor: Actor, change: SettingsChange, game: Game) -> tuple[str, ...]:
    """Apply what differs from the game's settings; returns the names of what changed.  A refused
    value raises DomainError (the request's earlier changes roll back with it)."""
    now = settings_of(game)
    done = []
    options = (("nmr", change.nmr, now.nmr), ("takeover", change.takeover, now.takeover),
               ("press", change.press, now.press), ("orders", change.orders, now.orders),
               ("early_minutes", change.early, now.early), ("timezone", change.timezone, now.timezone),
               ("reminder_hours", change.reminder_hours, now.reminder_hours))
    for key, wanted, current in options:
        if wanted is None or not wanted.strip() or _same(current, wanted):
            continue
        gm.set_option(judge, db, actor, key, wanted)
        done.append(key)
    rows = {row.kind: row for row in now.timing}
    for kind, key, text in change.timing:
        if kind not in rows or key not in ("next_hours", "grace_hours", "at", "days"):
            raise DomainError("bad_timing", f"no timing {key} for {kind}")
        value = _timing_value(key, text)
        current = getattr(rows[kind], key)
        if (value == current) if key.endswith("_hours") else ((value or "") == current):
            continue
        gm.set_timing(judge, db, actor, kind, key, value)  # type: ignore[arg-type]
        done.append(f"{kind} {key.replace('_', ' ')}")
    return tuple(done)


def default_settings() -> GameSettings:
    """What a new game gets unless the GM chooses otherwise (the new-game form's values)."""
    return settings_of(Game(name="", variant="standard", status=GameStatus.FORMING, master_email="", master_password_hash="",
                            press="white", settings={}))
