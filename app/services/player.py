"""A player's own settings: WAIT, DRAW, CONCEDE, ABSENCE, PASSWORD, ADDRESS, RESIGN."""

from __future__ import annotations

import re
from datetime import timedelta

from app.db.models import Game, Player
from app.mail.commands import CommandError
from app.services.mail_session import MailSession
from app.services.notify import mail_game, mail_master
from app.services.render import format_deadline
from app.services.security import hash_password
from app.services.timing import game_setting, parse_when

__all__ = ["resign", "set_absence", "set_address", "set_draw", "set_password", "set_wait"]

_ADDRESS = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")
MAX_ABSENCE_DAYS = 14


def _seat(ctx: MailSession) -> Player:
    if ctx.seat is None:
        raise CommandError("sign on as a player first")
    return ctx.seat


def _power_seat(ctx: MailSession) -> Player:
    seat = _seat(ctx)
    if seat.role != "player" or not seat.power:
        raise CommandError("only a power can do that")
    return seat


def set_wait(ctx: MailSession, wait: bool) -> None:
    seat = _power_seat(ctx)
    seat.wait = wait
    ctx.changed = True
    ctx.add_note("WAIT set: no early processing." if wait else "NOWAIT: the phase may be processed early.")


def _surviving(game: Game) -> list[Player]:
    return [s for s in game.players if s.role == "player" and s.power and s.status != "eliminated"]


def set_draw(ctx: MailSession, powers: str | None) -> None:
    seat = _power_seat(ctx)
    game = ctx.require_game()
    if powers is None:
        seat.draw = None
        ctx.add_note("Draw vote withdrawn.")
        return
    book = ctx.book(game)
    listed, unknown = book.parse_list(powers)
    if unknown:
        raise CommandError(f"unknown powers: {', '.join(unknown)}")
    alive = sorted(s.power for s in _surviving(game) if s.power)
    wanted = sorted(listed) if listed else alive
    seat.draw = ",".join(wanted)
    ctx.add_note(f"You vote for a draw between {', '.join(book.name(p) for p in wanted)}.")
    votes = {s.draw for s in _surviving(game) if s.status not in ("cd", "abandoned")}
    if votes == {seat.draw}:
        game.status, game.deadline = "finished", None
        names = [book.name(p) for p in wanted]
        listed_text = ", ".join(names[:-1]) + f", and {names[-1]}" if len(names) > 2 else " and ".join(names)
        ctx.audit("draw", powers=wanted)
        mail_game(ctx.db, ctx.judge, game, f"Diplomacy game {game.name} is over",
                  f"Game '{game.name}' has been declared a draw between {listed_text}.\n"
                  f"Congratulations on a well-played game.\n", kind="end")


def set_concede(ctx: MailSession, power: str) -> None:
    seat = _power_seat(ctx)
    game = ctx.require_game()
    book = ctx.book(game)
    if not power.strip():
        seat.concede = None
        ctx.add_note("Concession withdrawn.")
        return
    pid = book.find(power)
    if pid is None:
        raise CommandError(f"no power called '{power}'")
    seat.concede = pid
    ctx.add_note(f"You concede to {book.name(pid)}.")
    others = [s for s in _surviving(game) if s.power != pid and s.status not in ("cd", "abandoned")]
    if others and all(s.concede == pid for s in others):
        game.status, game.deadline = "finished", None
        ctx.audit("concede", power=pid)
        mail_game(ctx.db, ctx.judge, game, f"Diplomacy game {game.name} is over",
                  f"Game '{game.name}' has been conceded to {book.name(pid)}.  Congratulations!\n", kind="end")


def set_absence(ctx: MailSession, args: str) -> None:
    seat = _power_seat(ctx)
    game = ctx.require_game()
    zone = game_setting(game.settings, "timezone")
    start_text, _, end_text = args.upper().partition(" TO ")
    now = ctx.judge.now()
    start = parse_when(start_text.strip(), now, zone) if start_text.strip() else now
    end = parse_when(end_text.strip(), now, zone) if end_text.strip() else None
    if start is None or end is None or end <= start:
        raise CommandError("say SET ABSENCE 2026-12-01 TO 2026-12-07")
    if end - start > timedelta(days=MAX_ABSENCE_DAYS) and not ctx.master:
        raise CommandError(f"absences are at most {MAX_ABSENCE_DAYS} days")
    seat.absence_from, seat.absence_to = start, end
    note = f"Absence recorded from {format_deadline(start, zone)} to {format_deadline(end, zone)}."
    if game.deadline is not None and start <= game.deadline <= end:
        game.deadline = end + timedelta(hours=1)
        mail_game(ctx.db, ctx.judge, game, f"Diplomacy deadline changed {game.name}",
                  f"Because of an absence, the deadline for {game.phase} is now "
                  f"{format_deadline(game.deadline, zone)}.\n")
        note += " The deadline moved after it."
    ctx.add_note(note)


def set_password(ctx: MailSession, password: str) -> None:
    if len(password.split()) != 1 or len(password) < 3:
        raise CommandError("a password is one word of at least 3 characters")
    if ctx.master and ctx.seat is None:
        ctx.require_game().master_password_hash = hash_password(password)
    else:
        _seat(ctx).password_hash = hash_password(password)
    ctx.add_note("Password changed.")


def set_address(ctx: MailSession, address: str) -> None:
    address = address.strip().lower() or ctx.sender
    if not _ADDRESS.match(address):
        raise CommandError(f"'{address}' is not a mail address")
    if ctx.master and ctx.seat is None:
        ctx.require_game().master_email = address
    else:
        _seat(ctx).email = address
    ctx.add_note(f"Address changed to {address}.")


def resign(ctx: MailSession) -> None:
    seat = _seat(ctx)
    game = ctx.require_game()
    if seat.role == "observer" or game.status == "forming":
        game.players.remove(seat)
        ctx.db.delete(seat)
        ctx.seat = None
        ctx.add_note("You have left the game.")
        return
    seat.status = "resigned"
    name = ctx.book(game).name(seat.power or "")
    mail_master(ctx.db, ctx.judge, game, f"Diplomacy player resigned {game.name}",
                f"{name} ({seat.email}) has resigned from '{game.name}'.  The power is open for TAKEOVER,\n"
                f"or REPLACE it.\n")
    ctx.seat = None
    ctx.add_note(f"You have resigned {name}; the power is open for TAKEOVER.")
