"""Deadline arithmetic per phase type (the options it reads: ``ruleset/options.py``), and dates."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from app.services.ruleset.options import GameOptions

__all__ = ["next_deadline", "parse_when"]


def next_deadline(options: GameOptions, phase_code: str, now: datetime) -> datetime:
    """The deadline of a phase ``phase_code`` opening ``now``: its kind's hours on, at the time of
    day and on the weekdays the game's timing asks for (in the game's time zone)."""
    timing = options.timing(phase_code)
    when = now + timedelta(hours=timing.next_hours)
    if timing.at:
        zone = ZoneInfo(options.timezone)
        hour, _, minute = timing.at.partition(":")
        local = when.astimezone(zone)
        snapped = local.replace(hour=int(hour), minute=int(minute or 0), second=0, microsecond=0)
        if snapped < local:
            snapped += timedelta(days=1)
        when = snapped.astimezone(ZoneInfo("UTC"))
    if timing.days:
        zone = ZoneInfo(options.timezone)
        for _ in range(7):  # njudge's DAYS: the weekdays a deadline may fall on
            if _day_allowed(timing.days, when.astimezone(zone).weekday()):
                break
            when += timedelta(days=1)
    return when.replace(microsecond=0)


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
