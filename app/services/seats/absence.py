"""The absence cap: a player may be absent at most ``absence_cap_days`` in any ``absence_window_days``
of a game (14 in any 60 by default), unless the GM grants more (``GRANT ABSENCE``).

Each absence a player sets is an audit row (``absence``) of its seat and address; the cap counts
the days of the union of those absences that fall in the worst window, so overlapping or
repeated SET ABSENCE mails cannot push a deadline back without end.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import AuditEntry, Game, Player
from app.db.statuses import SeatRole, SeatStatus
from app.services.errors import DomainError
from app.services.kernel.access import book_of, gm_game
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.kernel.uow import UnitOfWork

__all__ = ["ABSENCE", "Absence", "AbsenceGrant", "absences_at", "check_absence_cap", "clear_of_absences", "covered_days",
           "end_text", "grant_absence", "granted_days", "inclusive_end", "record_absence", "spoken_absence"]

ABSENCE = _ACTION = "absence"  # the audit action of an absence (its rows are audit rows)
_GRANTS = "absence_grants"
MAX_GRANT_DAYS = 365


@dataclass(frozen=True)
class AbsenceGrant:
    power_name: str
    extra_days: int
    cap_days: int
    window_days: int


@dataclass(frozen=True)
class Absence:
    power: str
    start: datetime
    end: datetime


SEATED = (SeatStatus.ACTIVE, SeatStatus.ABSENT, SeatStatus.CD)


def inclusive_end(text: str, parsed: datetime) -> datetime:
    """An absence ``TO 2026-12-14`` (a date without a time) takes in the whole of that day, as
    people read it: it ends at the midnight after it (issue 22.2)."""
    text = text.strip()
    if text and ":" not in text and text[-1:].isdigit():
        return parsed + timedelta(days=1)
    return parsed


def end_text(end: datetime, zone: str = "UTC") -> str:
    """The end of an absence as people read it: one that ends at a midnight is shown as the last
    minute of the day before (``TO 2026-12-14`` -> ``Mon Dec 14 2026 23:59``)."""
    try:
        local = end.astimezone(ZoneInfo(zone))
    except (ZoneInfoNotFoundError, ValueError):
        local = end
    if (local.hour, local.minute, local.second) == (0, 0, 0):
        return format_deadline(end - timedelta(minutes=1), zone)
    return format_deadline(end, zone)


def spoken_absence(seat: Player, zone: str = "UTC") -> str | None:
    """A seat's absence as the mail says it (``SET ABSENCE``'s answer), for every door alike: its
    start, and its end by ``end_text`` (``... to Mon Dec 14 2026 23:59 UTC``); None without one."""
    if seat.absence_from is None or seat.absence_to is None:
        return None
    return f"{format_deadline(seat.absence_from, zone)} to {end_text(seat.absence_to, zone)}"


def granted_days(game: Game, power: str | None) -> int:
    grants = game.settings.get(_GRANTS) or {}
    return int(grants.get(power or "", 0)) if isinstance(grants, dict) else 0


_DETAILS = select(AuditEntry.detail).where(AuditEntry.game_id == bindparam("game_id"), AuditEntry.action == _ACTION)


def _recorded_details(db: Session, game: Game) -> list[dict[str, object]]:
    """The details of every absence recorded in ``game`` (one query, whoever set them)."""
    return [detail for detail in queries.core(db, _DETAILS, {"game_id": game.id}).scalars() if isinstance(detail, dict)]


def _spans_of(details: list[dict[str, object]], seat: Player) -> list[tuple[datetime, datetime]]:
    """The absences of ``details`` that ``seat``'s present player set (a new player starts afresh)."""
    return [(datetime.fromisoformat(str(d["start"])), datetime.fromisoformat(str(d["end"]))) for d in details
            if d.get("seat") == seat.id and d.get("email") == seat.email]


def _recorded(db: Session, game: Game, seat: Player) -> list[tuple[datetime, datetime]]:
    return _spans_of(_recorded_details(db, game), seat)


def covered_days(spans: list[tuple[datetime, datetime]], window: timedelta) -> float:
    """The most days of the union of ``spans`` inside any window of length ``window``."""
    merged: list[tuple[datetime, datetime]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    best = timedelta(0)
    for low, high in [(s, s + window) for s, _ in merged] + [(e - window, e) for _, e in merged]:
        cover = sum((min(e, high) - max(s, low) for s, e in merged if min(e, high) > max(s, low)), timedelta(0))
        best = max(best, cover)
    return best / timedelta(days=1)


def _absences(db: Session, game: Game) -> list[Absence]:
    """Every absence the players now holding a power set in this game (one query for them all,
    not one a seat: a turn's next deadline is cleared of them)."""
    seats = [seat for seat in game.players if seat.role == SeatRole.PLAYER and seat.power and seat.status in SEATED]
    if not seats:
        return []
    details = _recorded_details(db, game)
    return [Absence(seat.power, start, end) for seat in seats if seat.power
            for start, end in _spans_of(details, seat)]


def absences_at(uow: UnitOfWork, game: Game, when: datetime) -> list[Absence]:
    """The absences ``when`` falls in (both ends included)."""
    db = uow.session
    return [a for a in _absences(db, game) if a.start <= when <= a.end]


def clear_of_absences(uow: UnitOfWork, game: Game, when: datetime) -> datetime:
    """A deadline the judge sets, moved out of every absence of a player in the game: the same time
    of day on the first day after the absence (again if that day falls in another one)."""
    db = uow.session
    absences = [] if uow.has_none("absences", game.id) else _absences(db, game)
    for _ in range(len(absences) + 1):
        ends = [a.end for a in absences if a.start <= when <= a.end]
        if not ends:
            break
        while when <= max(ends):
            when += timedelta(days=1)
    return when


def check_absence_cap(judge: Judge, uow: UnitOfWork, game: Game, seat: Player, begins: datetime, ends: datetime) -> None:
    """Refuse an absence that would take the player past the cap (the GM's grant included)."""
    db = uow.session
    cap = judge.settings.absence_cap_days + granted_days(game, seat.power)
    window = judge.settings.absence_window_days
    used = covered_days(_recorded(db, game, seat), timedelta(days=window))
    total = covered_days([*_recorded(db, game, seat), (begins, ends)], timedelta(days=window))
    if total > cap + 1e-9:
        raise DomainError("absence_cap", f"absences are capped at {cap} days in any {window} days of a game "
                                         f"({used:.1f} days already taken; this one would make {total:.1f}); "
                                         f"ask the game master to grant more", cap=cap, window=window,
                          used=f"{used:.1f}", total=f"{total:.1f}")


def record_absence(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, seat: Player, begins: datetime,
                   ends: datetime) -> None:
    audit(uow, actor, game, _ACTION, at=judge.now(), seat=seat.id, email=seat.email, power=seat.power,
          start=begins.isoformat(), end=ends.isoformat())


def grant_absence(judge: Judge, uow: UnitOfWork, actor: Actor, power: str, days: int) -> AbsenceGrant:
    """(GM) Let ``power`` take ``days`` more days of absence than the cap (0: back to the cap)."""
    game = gm_game(uow, actor)
    book = book_of(judge, game)
    pid = book.find(power)
    if pid is None:
        raise DomainError("unknown_power", f"no power called '{power}'")
    if not 0 <= days <= MAX_GRANT_DAYS:
        raise DomainError("bad_days", f"grant between 0 and {MAX_GRANT_DAYS} days")
    settings = dict(game.settings)
    grants = dict(settings.get(_GRANTS) or {})
    grants[pid] = days
    settings[_GRANTS] = grants
    game.settings = settings
    audit(uow, actor, game, "grant_absence", power=pid, days=days)
    return AbsenceGrant(book.name(pid), days, judge.settings.absence_cap_days + days,
                        judge.settings.absence_window_days)
