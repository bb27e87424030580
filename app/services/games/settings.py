"""A game's settings as the GM changes them on the dashboard (issue 21.13): grace, NMR policy,
TAKEOVER policy, press rules (``postal`` included), phase timings, early processing, orders mode,
time zone, reminders and how long a draw vote stands (``SET DRAW EXPIRES``).  Each change goes through the use case of its mail command (``SET ...``:
``gm.set_option``, ``gm.set_timing``); values equal to the game's are left alone, so the audit log
names only what changed.  The variants a game may be created with are listed here too."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.db.models import Game
from app.db.statuses import GameStatus
from app.dod3.powers import GROUPING_PRESETS
from app.services.errors import DomainError
from app.services.games import gm
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
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
    layout: str = "judge"
    observer_press: bool = False  # observers may send (white) press: SET PRESS ... OBSERVERS
    rules: tuple[tuple[str, str], ...] = ()  # the game's own rule options (SET RULE), as set
    draw_expires: str = "never"  # how long a draw vote stands: phase | never (SET DRAW EXPIRES)


def settings_of(game: Game) -> GameSettings:
    """The game's settings, its own or the judge's defaults."""
    options = options_of(game)
    timings = options.timings
    rows = tuple(PhaseTiming(kind, timings[kind].next_hours, timings[kind].grace_hours, timings[kind].at or "",
                             timings[kind].days or "") for kind in PHASE_KINDS)
    return GameSettings(
        nmr=options.nmr, takeover=options.takeover, press="postal" if options.postal_press else game.press,
        orders=options.orders, early=f"{options.early_minutes:g}" if options.early else "off",
        timezone=options.timezone, reminder_hours=options.reminder_hours, timing=rows, layout=options.layout,
        observer_press=options.observer_press, draw_expires=options.draw_expires,
        rules=tuple((str(k), _rule_text(v)) for k, v in sorted(((game.settings or {}).get("rules") or {}).items())))


def _rule_text(value: object) -> str:
    return {True: "on", False: "off"}.get(value, str(value)) if isinstance(value, bool) else str(value)


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
    layout: str | None = None
    observer_press: bool | None = None  # observers may send press (None: as it is)
    rule: tuple[str, str] | None = None  # (option, value as SET RULE takes it: on, off, default, ...)
    draw_expires: str | None = None  # phase | never (SET DRAW EXPIRES)


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


def _press_wanted(change: SettingsChange, now: GameSettings) -> str | None:
    """``SET PRESS`` of the form's press rule and observers' box, when either differs."""
    rule = change.press.strip().lower() if change.press and change.press.strip() else now.press
    observers = now.observer_press if change.observer_press is None else change.observer_press
    if rule == now.press.lower() and observers == now.observer_press:
        return None
    return rule + (" observers" if observers else "")


def _rule_value(text: str) -> object:
    """A rule option's value as the form gives it (``on``/``off`` for a yes/no option; ``default``:
    back to the variant's)."""
    words = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False, "default": None}
    return words.get(text.strip().lower(), text.strip()) if text.strip() else True


def change_settings(judge: Judge, uow: UnitOfWork, actor: Actor, change: SettingsChange, game: Game) -> tuple[str, ...]:
    """Apply what differs from the game's settings; returns the names of what changed.  A refused
    value raises DomainError with the form field it belongs to (``values["field"]``); the request's
    earlier changes roll back with it (the door's savepoint)."""
    now = settings_of(game)
    done = []
    press = _press_wanted(change, now)
    options = (("nmr", change.nmr, now.nmr, "nmr"), ("takeover", change.takeover, now.takeover, "takeover"),
               ("press", press, None, "press"), ("orders", change.orders, now.orders, "orders"),
               ("layout", change.layout, now.layout, "layout"),
               ("early_minutes", change.early, now.early, "early"), ("timezone", change.timezone, now.timezone, "timezone"),
               ("reminder_hours", change.reminder_hours, now.reminder_hours, "reminder_hours"),
               ("draw_expires", change.draw_expires, now.draw_expires, "draw_expires"))
    for key, wanted, current, field in options:
        if wanted is None or not wanted.strip() or (current is not None and _same(current, wanted)):
            continue
        try:
            gm.set_option(judge, uow, actor, key, wanted)
        except DomainError as error:
            raise error.with_values(field=field) from error
        done.append(key)
    rows = {row.kind: row for row in now.timing}
    for kind, key, text in change.timing:
        if kind not in rows or key not in ("next_hours", "grace_hours", "at", "days"):
            raise DomainError("bad_timing", f"no timing {key} for {kind}")
        try:
            value = _timing_value(key, text)
            current = getattr(rows[kind], key)
            if (value == current) if key.endswith("_hours") else ((value or "") == current):
                continue
            gm.set_timing(judge, uow, actor, kind, key, value)  # type: ignore[arg-type]
        except DomainError as error:
            raise error.with_values(field=f"{kind}_{key}") from error
        done.append(f"{kind} {key.replace('_', ' ')}")
    if change.rule is not None and change.rule[0].strip():
        try:
            gm.set_rule(judge, uow, actor, change.rule[0].strip(), _rule_value(change.rule[1]))
        except DomainError as error:
            raise error.with_values(field="rule_value") from error
        done.append(f"rule {change.rule[0].strip().lower()}")
    return tuple(done)


def default_settings() -> GameSettings:
    """What a new game gets unless the GM chooses otherwise (the new-game form's values)."""
    return settings_of(Game(name="", variant="standard", status=GameStatus.FORMING, master_email="", master_password_hash="",
                            press="white", settings={}))
