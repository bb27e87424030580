"""Games before and outside play: create, join, observe, take over, start, list, history."""

from __future__ import annotations

import random
import re
from typing import Any

from sqlalchemy import select

from app.db import queries
from app.db.models import Game, Phase, Player
from app.mail.commands import CommandError
from app.services.mail_session import MailSession
from app.services.notify import mail_game, mail_seat
from app.services.powers import PowerBook
from app.services.render import format_deadline
from app.services.security import hash_password, new_token
from app.services.timing import DEFAULT_SETTINGS, game_setting, next_deadline

__all__ = ["create_game", "join_game", "list_games", "start_game", "takeover"]

_NAME = re.compile(r"^[a-z][a-z0-9_-]{1,29}$")


def create_game(ctx: MailSession, name: str, password: str, variant: str = "standard",
                settings: dict[str, Any] | None = None, press: str = "white") -> Game:
    name = name.lower()
    if not _NAME.match(name):
        raise CommandError("a game name is 2 to 30 letters, digits, '-' or '_', starting with a letter")
    if queries.game_by_name(ctx.db, name) is not None:
        raise CommandError(f"a game called '{name}' already exists")
    try:
        info = ctx.judge.variant_data(variant)
    except Exception as error:
        raise CommandError(f"unknown variant '{variant}'") from error
    if not info:
        raise CommandError(f"unknown variant '{variant}'")
    merged = {key: value for key, value in DEFAULT_SETTINGS.items() if key != "timing"}
    merged.update(settings or {})
    game = Game(name=name, variant=variant, status="forming", master_email=ctx.sender,
                master_password_hash=hash_password(password), press=press, settings=merged)
    ctx.db.add(game)
    ctx.db.flush()
    ctx.game, ctx.master, ctx.seat = game, True, None
    ctx.audit("create", variant=variant)
    return game


def _new_seat(ctx: MailSession, game: Game, password: str, *, role: str, power: str | None = None,
              preferences: str = "") -> Player:
    seat = Player(game_id=game.id, power=power, role=role, email=ctx.sender, password_hash=hash_password(password),
                  status="active", reply_token=new_token(), preferences=preferences)
    ctx.db.add(seat)
    game.players.append(seat)
    ctx.db.flush()
    return seat


def join_game(ctx: MailSession, target: str, password: str, preferences: str = "", *, observe: bool = False) -> Player:
    name = target.partition("@")[2] if "@" in target else target
    game = ctx.find_game(name)
    book = ctx.book(game)
    if observe:
        seat = _new_seat(ctx, game, password, role="observer")
        ctx.sign_on_new_seat(game, seat)
        ctx.add_note(f"You are observing game '{game.name}'.")
        return seat
    if game.status != "forming":
        raise CommandError(f"game '{game.name}' is not forming; TAKEOVER a vacant power instead")
    if "@" in target:
        wanted = book.find(target.partition("@")[0])
        if wanted is None:
            raise CommandError(f"no power called '{target.partition('@')[0]}'")
        preferences = wanted + ("," + preferences if preferences else "")
    players = [s for s in game.players if s.role == "player"]
    if len(players) >= len(book.ids):
        raise CommandError(f"game '{game.name}' is full")
    if any(s.email == ctx.sender for s in players):
        raise CommandError(f"you have already joined game '{game.name}'")
    prefs, unknown = book.parse_list(preferences)
    if unknown:
        ctx.add_note(f"Ignored unknown powers in the preferences: {', '.join(unknown)}.")
    seat = _new_seat(ctx, game, password, role="player", preferences=",".join(prefs))
    ctx.sign_on_new_seat(game, seat)
    ctx.add_note(f"Joined game '{game.name}' ({len(players) + 1} of {len(book.ids)} players).")
    if len(players) + 1 == len(book.ids) and game.settings.get("auto_start", True):
        start_game(ctx, game)
    return seat


def assign_powers(seats: list[Player], book: PowerBook, rng: random.Random) -> None:
    """Preferences first, in joining order; everyone else at random."""
    free = list(book.ids)
    for seat in seats:
        for pid in [p for p in seat.preferences.split(",") if p]:
            if pid in free:
                seat.power = pid
                free.remove(pid)
                break
    rng.shuffle(free)
    for seat in seats:
        if seat.power is None:
            seat.power = free.pop()


def start_game(ctx: MailSession, game: Game) -> None:
    if game.status != "forming":
        raise CommandError(f"game '{game.name}' has already started")
    book = ctx.book(game)
    seats = [s for s in game.players if s.role == "player"]
    if len(seats) != len(book.ids):
        raise CommandError(f"game '{game.name}' needs {len(book.ids)} players and has {len(seats)}")
    assign_powers(seats, book, random.Random())
    state = ctx.judge.api.initial_state(game.variant)
    now = ctx.judge.now()
    game.status = "active"
    game.phase = state["phase"]
    game.deadline = next_deadline(game.settings, game.phase, now)
    ctx.db.add(Phase(game_id=game.id, seq=1, code=game.phase, status="open", state_before=state,
                     deadline=game.deadline))
    ctx.db.flush()
    ctx.audit("start", powers={s.power: s.email for s in seats})
    zone = game_setting(game.settings, "timezone")
    roster = "\n".join(f"  {book.name(s.power or ''):<10} {s.email}" for s in seats)
    for seat in seats:
        text = (f"Game '{game.name}' ({game.variant}) has started.\n\n"
                f"You are {book.name(seat.power or '')}.  Sign on with\n\n"
                f"  SIGNON {book.name(seat.power or '')[0]}{game.name} <your password>\n\n"
                f"or simply reply to this mail: replies to {ctx.judge.settings.token_address(seat.reply_token)}\n"
                f"sign you on without a password.  Keep that address private.\n\n"
                f"The players:\n{roster}\n\n"
                f"The first phase is {game.phase}; the deadline for orders is {format_deadline(game.deadline, zone)}.\n")
        mail_seat(ctx.db, ctx.judge, seat, f"Diplomacy game {game.name} has started", text, kind="start")
    ctx.add_note(f"Game '{game.name}' has started: {game.phase}, deadline {format_deadline(game.deadline, zone)}.")


def takeover(ctx: MailSession, target: str, password: str) -> None:
    if "@" not in target:
        raise CommandError("say which power: TAKEOVER power@game password")
    who, _, name = target.partition("@")
    game = ctx.find_game(name)
    if who.lower() == "master":
        raise CommandError("the master role is handed over by the GM with REPLACE")
    pid = ctx.book(game).find(who)
    if pid is None:
        raise CommandError(f"no power called '{who}'")
    seat = queries.seat_for_power(ctx.db, game.id, pid)
    if seat is None or seat.status not in ("resigned", "abandoned", "cd"):
        raise CommandError(f"{ctx.book(game).name(pid)} is not vacant")
    seat.email = ctx.sender
    seat.password_hash = hash_password(password)
    seat.status = "active"
    seat.reply_token = new_token()
    seat.misses = 0
    ctx.db.flush()
    ctx.sign_on_new_seat(game, seat)
    ctx.audit("takeover", power=pid)
    ctx.add_note(f"You now play {ctx.book(game).name(pid)} in '{game.name}'. Your reply address is "
                 f"{ctx.judge.settings.token_address(seat.reply_token)}.")
    mail_game(ctx.db, ctx.judge, game, f"Diplomacy game {game.name}: takeover",
              f"{ctx.book(game).name(pid)} in game '{game.name}' has a new player.\n", kind="notice")
    if game.status == "paused" and game.paused_reason == "waiting for a replacement" and not any(
            s.status == "abandoned" for s in game.players):
        game.status, game.paused_reason = "active", None


def list_games(ctx: MailSession, name: str = "") -> str:
    if name:
        game = ctx.find_game(name)
        book = ctx.book(game)
        zone = game_setting(game.settings, "timezone")
        lines = [f"Game '{game.name}': {game.variant}, {game.status}, press {game.press}.",
                 f"Phase {game.phase or '-'}, deadline {format_deadline(game.deadline, zone)}."]
        for seat in game.players:
            label = book.name(seat.power) if seat.power else seat.role
            lines.append(f"  {label:<10} {seat.status}")
        return "\n".join(lines)
    games = ctx.db.scalars(select(Game).where(Game.status.in_(("forming", "active", "paused"))).order_by(Game.name))
    rows = [f"  {g.name:<16} {g.variant:<10} {g.status:<8} {g.phase or ''}" for g in games]
    return "Games on this judge:\n" + ("\n".join(rows) if rows else "  (none)")


def history(ctx: MailSession, name: str, start: str | None = None, end: str | None = None) -> str:
    game = ctx.find_game(name)
    chunks: list[str] = []
    active = start is None
    for phase in queries.phases_of(ctx.db, game.id):
        if start and phase.code.upper() == start.upper():
            active = True
        if active and phase.results_text:
            chunks.append(phase.results_text)
        if end and phase.code.upper() == end.upper():
            break
    return "\n\n".join(chunks) if chunks else f"Game '{game.name}' has no results yet."


def summary(ctx: MailSession, name: str) -> str:
    game = ctx.find_game(name)
    book = ctx.book(game)
    lines = [f"Summary of game '{game.name}' ({game.variant}, {game.status}).", "",
             "History of Supply Center Counts:", "  " + "Phase".ljust(8) + "".join(f"{p[:3]:>5}" for p in book.ids)]
    for phase in queries.phases_of(ctx.db, game.id):
        if phase.state_after and not phase.code.endswith("R"):
            centres = phase.state_after.get("centers") or {}
            lines.append("  " + phase.code.ljust(8) + "".join(f"{len(centres.get(p, [])):>5}" for p in book.ids))
    lines.append("")
    lines.append("Players:")
    for seat in game.players:
        if seat.role == "player":
            lines.append(f"  {book.name(seat.power) if seat.power else '?':<10} {seat.email} ({seat.status})")
    return "\n".join(lines)
