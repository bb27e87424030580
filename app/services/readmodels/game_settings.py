"""The settings page of one game for its GM (issue 28.4, DPjudge's status page): every setting the
GM can ``SET`` by mail, as it stands, with what the page's forms need beside it (the powers and
their absences for ``GRANT ABSENCE``, the deadline in the game's zone)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.db.models import Game
from app.db.statuses import SeatRole
from app.services.games.settings import GameSettings, settings_of
from app.services.kernel.access import book_of, require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.ruleset.kinds import ruleset_for
from app.services.seats.absence import granted_days, spoken_absence

__all__ = ["PowerAbsence", "SettingsPage", "settings_page"]


@dataclass(frozen=True)
class PowerAbsence:
    power: str  # id (GRANT ABSENCE takes it)
    name: str
    player: str | None
    granted_days: int  # over the cap (GRANT ABSENCE)
    absence: str | None  # as the mail says it: "Mon Dec 01 2026 00:00 UTC to Sun Dec 07 2026 23:59 UTC"


@dataclass(frozen=True)
class SettingsPage:
    game: str
    status: str
    phase: str | None
    deadline: datetime | None
    deadline_text: str  # in the game's zone, as the mail says it
    map_game: bool  # the map settings (press, NMR, timings, rules) apply; a DoD III game has its own
    settings: GameSettings
    powers: tuple[PowerAbsence, ...]
    absence_cap_days: int
    absence_window_days: int


def settings_page(judge: Judge, actor: Actor, game: Game) -> SettingsPage:
    """What the settings page shows of ``game``, for its GM."""
    require_gm(actor, game)
    settings = settings_of(game)
    book = book_of(judge, game)
    seats = {s.power: s for s in game.players if s.role == SeatRole.PLAYER and s.power}
    powers = tuple(PowerAbsence(p, book.name(p), seats[p].email if p in seats else None, granted_days(game, p),
                                spoken_absence(seats[p], settings.timezone) if p in seats else None)
                   for p in book.ids)
    return SettingsPage(game.name, game.status, game.phase, game.deadline,
                        format_deadline(game.deadline, settings.timezone) if game.deadline else "none set",
                        ruleset_for(game.variant).has_map, settings, powers, judge.settings.absence_cap_days,
                        judge.settings.absence_window_days)
