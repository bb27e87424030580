"""What the game master does by mail: pause, replace, eject, notes, deadlines, timing and options."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from app.db import queries
from app.db.models import Game
from app.mail.commands import CommandError
from app.services.deadlines import resume_game
from app.services.mail_session import MailSession
from app.services.notify import mail_game, mail_seat
from app.services.render import format_deadline
from app.services.security import hash_password, new_token
from app.services.timing import game_setting, parse_days, parse_when

__all__ = ["set_deadline", "set_option", "set_rule", "set_timing"]

NMR_POLICIES = ("cd", "hold", "wait", "dismiss")


def _running(ctx: MailSession) -> Game:
    game = ctx.require_game()
    if game.status not in ("active", "paused"):
        raise CommandError(f"game '{game.name}' is {game.status}")
    return game


def set_deadline(ctx: MailSession, text: str) -> None:
    game = _running(ctx)
    now = ctx.judge.now()
    when = parse_when(text, now, game_setting(game.settings, "timezone"))
    if when is None:
        raise CommandError("say the deadline as 2026-12-01 20:00, or +48h")
    cap = now + timedelta(days=ctx.judge.settings.max_extension_days)
    if when > cap:
        raise CommandError(f"deadlines can be at most {ctx.judge.settings.max_extension_days} days ahead")
    game.deadline = when
    game.grace_until = None
    phase = queries.open_phase(ctx.db, game.id)
    if phase is not None:
        phase.deadline = when
    ctx.audit("set_deadline", deadline=when.isoformat())
    mail_game(ctx.db, ctx.judge, game, f"Diplomacy deadline changed {game.name}",
              f"The deadline for {game.phase} in '{game.name}' is now {format_deadline(when)}.\n")
    ctx.add_note(f"Deadline set to {format_deadline(when)}.")


def set_timing(ctx: MailSession, kind: str, args: str) -> None:
    """``SET MOVE NEXT 48``, ``SET RETREAT GRACE 12``, ``SET ADJUST AT 20:00``, ``SET MOVE DAYS -MTWTF-``,
    ``SET GRACE 24``."""
    game = ctx.require_game()
    words = args.upper().split()
    if len(words) != 2 or words[0] not in ("NEXT", "GRACE", "AT", "DAYS"):
        raise CommandError("say SET MOVE|RETREAT|ADJUST NEXT|GRACE <hours>, AT <hh:mm> or DAYS -MTWTF-")
    key = {"NEXT": "next_hours", "GRACE": "grace_hours", "AT": "at", "DAYS": "days"}[words[0]]
    value: float | str | None
    if key == "days":
        try:
            value = parse_days(words[1])
        except ValueError as error:
            raise CommandError(str(error)) from error
    elif key == "at":
        value = None if words[1] in ("NONE", "OFF") else words[1]
    else:
        try:
            value = float(words[1].rstrip("H"))
        except ValueError as error:
            raise CommandError("hours must be a number") from error
        if value < 0 or value > 24 * ctx.judge.settings.max_extension_days:
            raise CommandError("hours out of range")
    kinds = ("movement", "retreat", "adjustment") if kind == "all" else (kind,)
    settings = dict(game.settings)
    timing = dict(settings.get("timing") or {})
    for k in kinds:
        entry = dict(timing.get(k) or {})
        entry[key] = value
        timing[k] = entry
    settings["timing"] = timing
    game.settings = settings
    ctx.audit("set_timing", kind=kind, key=key, value=value)
    ctx.add_note(f"{', '.join(kinds)}: {key.replace('_', ' ')} = {value}.")


def set_rule(ctx: MailSession, args: str) -> None:
    """``SET RULE victory_groups on``, ``SET RULE removal_default civil_disorder``,
    ``SET RULE edition 1971``; ``SET RULE <option> default`` drops the game's choice."""
    from app.jsonapi import with_game_rules
    from app.variants import load_variant

    game = ctx.require_game()
    words = args.split()
    if len(words) != 2:
        raise CommandError("say SET RULE <option> <value>, e.g. SET RULE victory_groups on")
    name, text = words[0].lower(), words[1].lower()
    value: Any = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}.get(text, text)
    rules = dict((game.settings or {}).get("rules") or {})
    if text == "default":
        rules.pop(name, None)
    else:
        rules[name] = value
    try:
        with_game_rules(load_variant(game.variant), rules)
    except (ValueError, LookupError) as error:
        raise CommandError(f"rule not changed: {error}") from error
    game.settings = {**(game.settings or {}), "rules": rules}
    ctx.audit("set_rule", option=name, value=value)
    ctx.add_note(f"Rule {name} = {rules.get(name, 'the variant default')}.")


def set_option(ctx: MailSession, key: str, value: str) -> None:
    game = ctx.require_game()
    value = value.strip().lower()
    allowed = {
        "nmr": None, "layout": ("judge", "zine"), "orders": ("per_unit", "whole_set"),
        "press": ("none", "white", "grey", "white/grey", "postal"), "timezone": None, "reminder_hours": None,
    }
    settings = dict(game.settings)
    if key == "press":
        if value not in allowed["press"]:  # type: ignore[operator]
            raise CommandError("press is none, white, grey, white/grey or postal")
        if value == "postal":
            settings["postal_press"] = True
        else:
            game.press = value
    elif key == "nmr":
        if value not in NMR_POLICIES and not (value.startswith("excuse") and value.partition(":")[2].isdigit()):
            raise CommandError("NMR policy is cd, hold, wait, dismiss or excuse:N")
        settings["nmr"] = value
    elif key == "reminder_hours":
        try:
            settings["reminder_hours"] = float(value)
        except ValueError as error:
            raise CommandError("hours must be a number") from error
    elif key == "notes":
        raise CommandError("use NOTE <text>")
    elif key == "timezone":
        from zoneinfo import ZoneInfo

        try:
            ZoneInfo(value.title() if "/" in value else value.upper())
        except Exception as error:
            raise CommandError(f"unknown time zone '{value}'") from error
        settings["timezone"] = value.title() if "/" in value else value.upper()
    else:
        options = allowed[key]
        value = value.replace("-", "_").replace(" ", "_")
        if options and value not in options:
            raise CommandError(f"{key} is one of {', '.join(options)}")
        settings[key] = value
    game.settings = settings
    ctx.audit("set", key=key, value=value)
    ctx.add_note(f"{key} set to {value}.")


def pause(ctx: MailSession) -> None:
    game = _running(ctx)
    game.status, game.paused_reason = "paused", "paused by the master"
    ctx.audit("pause")
    mail_game(ctx.db, ctx.judge, game, f"Diplomacy game {game.name} paused",
              f"The master has paused game '{game.name}'.\n")
    ctx.add_note("Game paused.")


def resume(ctx: MailSession) -> None:
    game = ctx.require_game()
    if game.status != "paused":
        raise CommandError("the game is not paused")
    resume_game(ctx.db, ctx.judge, game)
    ctx.audit("resume")
    ctx.add_note(f"Game resumed; deadline {format_deadline(game.deadline)}.")


def eject(ctx: MailSession, who: str) -> None:
    game = ctx.require_game()
    pid = ctx.book(game).find(who)
    seat = queries.seat_for_power(ctx.db, game.id, pid) if pid else next(
        (s for s in game.players if s.email == who.lower()), None)
    if seat is None:
        raise CommandError(f"no player '{who}'")
    if seat.role == "observer":
        ctx.db.delete(seat)
    else:
        seat.status = "abandoned"
    ctx.audit("eject", who=who)
    ctx.add_note(f"{who} ejected; the power is open for TAKEOVER.")


def replace(ctx: MailSession, args: str) -> None:
    game = ctx.require_game()
    words = args.split()
    if len(words) < 2 or "@" not in words[1]:
        raise CommandError("say REPLACE <power> <address> [password]")
    pid = ctx.book(game).find(words[0])
    seat = queries.seat_for_power(ctx.db, game.id, pid) if pid else None
    if seat is None:
        raise CommandError(f"no power '{words[0]}'")
    password = words[2] if len(words) > 2 else new_token()[:10]
    seat.email, seat.password_hash = words[1].lower(), hash_password(password)
    seat.status, seat.misses, seat.reply_token = "active", 0, new_token()
    ctx.audit("replace", power=pid, address=seat.email)
    mail_seat(ctx.db, ctx.judge, seat, f"Diplomacy game {game.name}: you play {ctx.book(game).name(seat.power or '')}",
              f"The master of '{game.name}' has made you {ctx.book(game).name(seat.power or '')}.\n"
              f"Your password is {password}; replying to this mail signs you on without it.\n", kind="start")
    if game.status == "paused" and game.paused_reason == "waiting for a replacement" and not any(
            s.status == "abandoned" for s in game.players):
        resume_game(ctx.db, ctx.judge, game)
    ctx.add_note(f"{ctx.book(game).name(seat.power or '')} is now played by {seat.email}.")


def add_note(ctx: MailSession, text: str) -> None:
    game = ctx.require_game()
    settings = dict(game.settings)
    settings["notes"] = [*settings.get("notes", []), text[:1000]]
    game.settings = settings
    ctx.add_note("Note stored: it will be published with the next results.")


def terminate(ctx: MailSession) -> None:
    game = ctx.require_game()
    game.status, game.deadline = "terminated", None
    ctx.audit("terminate")
    mail_game(ctx.db, ctx.judge, game, f"Diplomacy game {game.name} terminated",
              f"The master has terminated game '{game.name}'.  Thank you for playing.\n")
    ctx.add_note("Game terminated.")
