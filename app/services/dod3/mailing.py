"""The mail a DoD III game sends: one copy per player (a player of several powers gets one),
each showing that player's own hidden numbers (rule 3.2), and the GM's copy."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.db.models import Game, Player
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_master, mail_seat
from app.services.ruleset.options import options_of

from .store import LISTENING, ROLE, name, seat_of

__all__ = ["Line", "Opened", "Render", "Secret", "deadline_text", "listeners", "mail_all", "notice", "powers_of",
           "send_notice", "sections_with", "visible"]


@dataclass(frozen=True)
class Secret:
    """A line that says one thing to the public and more to the player of ``power``."""

    power: str
    public: str
    private: str


Line = str | Secret


def visible(lines: Sequence[Line], reveal: Collection[str]) -> list[str]:
    return [line if isinstance(line, str) else (line.private if line.power in reveal else line.public)
            for line in lines]


@dataclass(frozen=True)
class Opened:
    """The step the game now waits for (``code`` None when the game has ended)."""

    code: str | None
    text: str = ""
    deadline: datetime | None = None
    power: str | None = None  # whose option is awaited
    commitment: str | None = None  # the new turn's dice commitment, when a turn begins
    ended: tuple[str, ...] = ()


def deadline_text(game: Game, when: datetime | None) -> str:
    return format_deadline(when, options_of(game).timezone)


def listeners(game: Game) -> list[Player]:
    """One seat per address (a player holding several powers gets one copy)."""
    seen: set[str] = set()
    out = []
    for seat in game.players:
        if seat.status not in LISTENING and seat.role == ROLE:
            continue
        if seat.email in seen:
            continue
        seen.add(seat.email)
        out.append(seat)
    return out


def powers_of(game: Game, email: str) -> frozenset[str]:
    """The powers one address plays (its own hidden numbers are shown to it)."""
    return frozenset(s.power for s in game.players if s.role == ROLE and s.email == email and s.power)


Render = Callable[[frozenset[str]], tuple[str, str | None]]


def mail_all(uow: UnitOfWork, judge: Judge, game: Game, subject: str, render: Render, *, kind: str = "results") -> int:
    """Each listener's copy rendered for the powers it plays; the GM's with every power shown."""
    count = 0
    for seat in listeners(game):
        text, html = render(powers_of(game, seat.email) if seat.role == ROLE else frozenset())
        mail_seat(uow, judge, seat, subject, text, html=html, kind=kind)
        count += 1
    text, _html = render(frozenset(s.power for s in game.players if s.power))
    mail_master(uow, judge, game, subject, text, kind=kind)
    return count + 1


def notice(game: Game, title: str, sections: Sequence[tuple[str, Sequence[Line]]], opened: Opened,
           reveal: Collection[str]) -> dict[str, Any]:
    return {"game": game.name, "title": title, "next": opened.text, "commitment": opened.commitment,
            "sections": [(heading, visible(lines, reveal)) for heading, lines in sections]}


def send_notice(uow: UnitOfWork, judge: Judge, game: Game, what: str, sections: Sequence[tuple[str, Sequence[Line]]],
                opened: Opened, *, kind: str = "results") -> int:
    title = what[:1].upper() + what[1:]

    def render(reveal: frozenset[str]) -> tuple[str, str | None]:
        return judge.templates.render("mail/dod3/notice.txt.j2", n=notice(game, title, sections, opened, reveal)), None

    count = mail_all(uow, judge, game, f"DoD3 {game.name}: {what}", render, kind=kind)
    if opened.power:
        seat = seat_of(uow, game, opened.power)
        if seat is not None:
            mail_seat(uow, judge, seat, f"DoD3 {game.name}: {name(opened.power)} to name an option",
                      f"It is {name(opened.power)}'s turn to name its option in '{game.name}'.\n{opened.text}\n",
                      kind="notice")
            count += 1
    return count


def sections_with(first: tuple[str, Sequence[Line]], events: Sequence[Line]) -> list[tuple[str, Sequence[Line]]]:
    return [first] + ([("Then", events)] if events else [])


