"""Game settings with their defaults, and deadline arithmetic per phase type."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from app.services.ruleset.phases import PhaseName

__all__ = ["DEFAULT_SETTINGS", "early_minutes", "game_setting", "next_deadline", "parse_days", "parse_when", "timing_for"]

DEFAULT_SETTINGS: dict[str, Any] = {
    "layout": "judge",  # judge | zine
    "orders": "per_unit",  # per_unit | whole_set
    "nmr": "cd",  # cd | hold | wait | dismiss | excuse:N
    "postal_press": False,
    "observer_press": False,  # SET PRESS ... OBSERVERS: observers may send (white) press
    "timezone": "UTC",
    "reminder_hours": 6,
    "early": True,
    "early_minutes": 20,  # the quiet period after the last change before a ready phase runs early
    "timing": {
        "movement": {"next_hours": 48.0, "grace_hours": 24.0, "at": None},
        "retreat": {"next_hours": 24.0, "grace_hours": 12.0, "at": None},
        "adjustment": {"next_hours": 24.0, "grace_hours": 12.0, "at": None},
    },
}


def game_setting(settings: dict[str, Any] | None, key: str) -> Any:
    settings = settings or {}
    return settings.get(key, DEFAULT_SETTINGS[key])


def early_minutes(settings: dict[str, Any] | None) -> float:
    """The game's quiet period in minutes (``SET EARLY``; 0: at the next tick)."""
    try:
        return max(0.0, float(game_setting(settings, "early_minutes")))
    except (TypeError, ValueError):
        return float(DEFAULT_SETTINGS["early_minutes"])


def timing_for(settings: dict[str, Any] | None, phase_code: str) -> dict[str, Any]:
    kind = PhaseName(phase_code).kind
    merged = dict(DEFAULT_SETTINGS["timing"][kind])
    merged.update(((settings or {}).get("timing") or {}).get(kind) or {})
    return merged


def next_deadline(settings: dict[str, Any] | None, phase_code: str, now: datetime) -> datetime:
    timing = timing_for(settings, phase_code)
    when = now + timedelta(hours=float(timing["next_hours"]))
    at = timing.get("at")
    if at:
        zone = ZoneInfo(game_setting(settings, "timezone"))
        hour, _, minute = str(at).partition(":")
        local = when.astimezone(zone)
        snapped = local.replace(hour=int(hour), minute=int(minute or 0), second=0, microsecond=0)
        if snapped < local:
            snapped += timedelta(days=1)
        when = snapped.astimezone(ZoneInfo("UTC"))
    days = timing.get("days")
    if days:
        zone = ZoneInfo(game_setting(settings, "timezone"))
        for _ in range(7):  # njudge's DAYS: the weekdays a deadline may fall on
            if _day_allowed(days, when.astimezone(zone).weekday()):
                break
            when += timedelta(days=1)
    return when.replace(microsecond=0)


WEEK = "SMTWTFS"  # njudge writes the week from Sunday: SMTWTFS, '-' for a day off


def parse_days(pattern: str) -> str | None:
    """``-MTWTF-`` (no weekends) -> the pattern; ``ALL`` -> None (every day)."""
    text = pattern.strip().upper()
    if text in ("ALL", "ANY", "NONE", "OFF", WEEK):
        return None
    if len(text) != 7 or any(c not in ("-", w) for c, w in zip(text, WEEK)) or text == "-------":
        raise ValueError("DAYS takes seven letters from Sunday, a '-' for a day off: -MTWTF-")
    return text


def _day_allowed(days: str, weekday: int) -> bool:
    """`weekday` as Python counts it (Monday 0); `days` from Sunday."""
    return days[(weekday + 1) % 7] != "-"


def parse_when(text: str, now: datetime, zone: str = "UTC") -> datetime | None:
    """``2026-12-01 20:00``, ``2026-12-01``, ``+48h``, ``+2d`` or ``48h``."""
    text = text.strip()
    lowered = text.lower().lstrip("+")
    for suffix, unit in (("h", "hours"), ("d", "days"), ("m", "minutes")):
        if lowered.endswith(suffix) and lowered[:-1].replace(".", "", 1).isdigit():
            return now + timedelta(**{unit: float(lowered[:-1])})
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d", "%d %b %Y %H:%M", "%d %b %Y"):
        try:
            naive = datetime.strptime(text, fmt)
        except ValueError:
            continue
        return naive.replace(tzinfo=ZoneInfo(zone))
    return None
