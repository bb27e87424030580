"""What the game master does: pause, resume, eject, replace, notes, terminate, deadlines, timing, options."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from app.db import queries
from app.db.models import Game, Player
from app.db.statuses import RUNNING, GameStatus, SeatRole, SeatStatus
from app.services.errors import DomainError
from app.services.games.setting_notice import OPTION_LABELS, option_shown, record_change, timing_label, timing_shown
from app.services.kernel.access import book_of, gm_game
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.kernel.security import hash_password, new_token
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.address_confirmation import ask_address_confirmation
from app.services.mailout.addresses import check_player_address
from app.services.mailout.notify import mail_game, mail_seat
from app.services.results.gm_notes import add_gm_note
from app.services.ruleset import engine as game_engine
from app.services.ruleset.engine import load_variant
from app.services.ruleset.options import (
    LAYOUTS,
    NMR_POLICIES,
    ORDER_MODES,
    PHASE_KINDS,
    TAKEOVERS,
    GameOptions,
    Layout,
    PressRule,
    nmr_policy,
    options_of,
    store_options,
)
from app.services.ruleset.powers import full_stop
from app.services.ruleset.timing import parse_when
from app.services.seats.absence import absences_at, clear_of_absences, end_text
from app.services.seats.takeover import new_player, requested_password_hash, tell_previous_player, welcome_text
from app.services.seats.votes import draw_expiry_choice
from app.services.turns.deadlines import resume_game

__all__ = ["NMR_POLICIES", "PHASE_KINDS", "Replaced", "TimingKey", "TimingSet", "add_note", "eject", "pause", "replace", "resume",
           "set_deadline", "set_option", "set_rule", "set_timing", "terminate"]

TimingKey = Literal["next_hours", "grace_hours", "at", "days"]
_CHOICES: dict[str, tuple[str, ...]] = {"layout": LAYOUTS, "orders": ORDER_MODES, "takeover": TAKEOVERS}


@dataclass(frozen=True)
class TimingSet:
    kinds: tuple[str, ...]
    key: TimingKey
    value: float | str | None


@dataclass(frozen=True)
class Replaced:
    power_name: str
    address: str
    pending: bool = False  # the new address was mailed a confirmation: the seat is unchanged until it confirms


def _running(uow: UnitOfWork, actor: Actor) -> Game:
    game = gm_game(uow, actor)
    if game.status not in RUNNING:
        raise DomainError("not_running", f"game '{game.name}' is {game.status}")
    return game


def set_deadline(judge: Judge, uow: UnitOfWork, actor: Actor, when: str, *, confirm: bool = False) -> datetime:
    """Move this phase's deadline (``2026-12-01 20:00`` in the game's zone, or ``+48h``); returns it.
    A deadline inside a player's absence is refused with a warning unless ``confirm`` (issue 22.2)."""
    db = uow.session
    game = _running(uow, actor)
    now = judge.now()
    zone = options_of(game).timezone
    deadline = parse_when(when, now, zone)
    if deadline is None:
        raise DomainError("bad_deadline", "say the deadline as 2026-12-01 20:00, or +48h")
    if deadline <= now:  # every power would be late at once, or defaulted without grace (issue 21.4)
        raise DomainError("deadline_in_past",
                          f"deadline not changed: {format_deadline(deadline, zone)} is not in the future",
                          deadline=format_deadline(deadline, zone))
    if deadline > now + timedelta(days=judge.settings.max_extension_days):
        raise DomainError("deadline_too_far",
                          f"deadlines can be at most {judge.settings.max_extension_days} days ahead")
    absent = absences_at(uow, game, deadline)
    if absent and not confirm:
        book = book_of(judge, game)
        who = "; ".join(f"{book.name(a.power)} is absent from {format_deadline(a.start, zone)} "
                        f"to {end_text(a.end, zone)}" for a in absent)
        first = format_deadline(clear_of_absences(uow, game, deadline), zone)
        raise DomainError("deadline_in_absence",
                          f"deadline not changed: {who}.  The first time after that absence is {first}",
                          absent=who, first_free=first, deadline=format_deadline(deadline, zone))
    game.deadline = deadline
    game.grace_until = None
    phase = queries.open_phase(db, game.id)
    if phase is not None:
        phase.deadline = deadline
    audit(uow, actor, game, "set_deadline", deadline=deadline.isoformat())
    mail_game(uow, judge, game, *judge.templates.notice("deadline_changed", game=game.name, phase=game.phase,
                                                       deadline=format_deadline(deadline)))
    return deadline


def _check_hours(judge: Judge, key: TimingKey, value: float | str | None) -> None:
    """The one rule of a phase timing's hours, whichever door asks (``SET MOVE NEXT 48``, the dashboard's
    settings and new-game forms): to the deadline 1 hour up to the cap of ``SET DEADLINE``
    (``JUDGE_MAX_EXTENSION_DAYS``, 14 days: 336 hours), a grace 0 (none) up to the same cap."""
    cap = 24 * judge.settings.max_extension_days
    low, what = (1, "hours to the deadline") if key == "next_hours" else (0, "grace hours")
    number = value if isinstance(value, float | int) and not isinstance(value, bool) else None
    if number is None or not low <= number <= cap:  # NaN fails both comparisons
        shown = str(value) if number is None else f"{number:g}"
        raise DomainError("hours_out_of_range", f"{what} are {low} to {cap} ({cap // 24} days), not {shown}")


def set_timing(judge: Judge, uow: UnitOfWork, actor: Actor, kind: str, key: TimingKey,
               value: float | str | None) -> TimingSet:
    """One timing value (hours, ``hh:mm`` or a days pattern) of one phase kind, or of ``all``."""
    game = gm_game(uow, actor)
    if key in ("next_hours", "grace_hours"):
        _check_hours(judge, key, value)
    if kind != "all" and kind not in PHASE_KINDS:
        raise DomainError("bad_phase_kind", f"the phase kind is one of {', '.join(PHASE_KINDS)}")
    kinds = PHASE_KINDS if kind == "all" else (kind,)
    options = options_of(game)
    before = options.timings
    changed: dict[str, Any] = {key: value}
    store_options(game, options.with_(timings={k: dataclasses.replace(before[k], **changed) for k in kinds}))
    changes = [(timing_label(k, key), timing_shown(key, getattr(before[k], key)), timing_shown(key, value))
               for k in kinds]
    changes = [change for change in changes if change[1] != change[2]]
    audit(uow, actor, game, "set_timing", kind=kind, key=key, value=value, changes=changes)
    for what, old, new in changes:
        record_change(uow, game, what, old, new)
    return TimingSet(kinds, key, value)


def set_rule(judge: Judge, uow: UnitOfWork, actor: Actor, option: str, value: Any) -> Any:
    """A rule option of this game (``None``: back to the variant's default); refused when the engine
    does not know the option or the value.  Returns the game's value (None: the default)."""
    game = gm_game(uow, actor)
    name = option.lower()
    rules = dict((game.settings or {}).get("rules") or {})
    if value is None:
        rules.pop(name, None)
    else:
        rules[name] = value
    try:
        game_engine.with_game_rules(load_variant(game.variant), rules)
    except (ValueError, LookupError) as error:
        raise DomainError("bad_rule", f"rule not changed: {error}") from error
    old = (game.settings or {}).get("rules", {}).get(name)
    game.settings = {**(game.settings or {}), "rules": rules}
    change = (f"rule {name}", "default" if old is None else str(old), "default" if value is None else str(value))
    audit(uow, actor, game, "set_rule", option=name, value=value,
          changes=[change] if change[1] != change[2] else [])
    record_change(uow, game, *change)
    return rules.get(name)


def _early_value(options: GameOptions, value: str) -> GameOptions:
    """``SET EARLY <minutes>`` (0: at the next tick), ``SET EARLY off`` (never early), ``on``."""
    if value in ("off", "no", "never"):
        return options.with_(early=False)
    if value in ("on", "yes"):
        return options.with_(early=True)
    try:
        minutes = float(value.removesuffix("m").removesuffix("min").strip())
    except ValueError as error:
        raise DomainError("bad_option", "early processing takes minutes (0 or more), or off",
                          option="early", range=False) from error
    if minutes < 0 or minutes != minutes or minutes > 7 * 24 * 60:
        raise DomainError("bad_option", "early processing takes minutes from 0 to a week (10080), or off",
                          option="early", range=True)
    return options.with_(early=True, early_minutes=minutes)


def _press_value(game: Game, options: GameOptions, value: str) -> GameOptions:
    """``SET PRESS rules [OBSERVERS]``: the press rules, and whether observers may send (white) press;
    ``SET PRESS OBSERVERS`` alone lets them without changing the rules."""
    words = value.split()
    observers = any(word in ("observers", "observer") for word in words)
    rules = [word for word in words if word not in ("observers", "observer")]
    if len(rules) > 1 or (rules and rules[0] not in set(PressRule)):
        raise DomainError("bad_option", "press is none, white, grey, white/grey or postal, optionally followed "
                                        "by OBSERVERS")
    postal = options.postal_press
    if rules and PressRule(rules[0]) is PressRule.POSTAL:
        postal = True
    elif rules:  # other press rules end postal press (mailed at once again)
        postal = False
        game.press = PressRule(rules[0]).value
    return options.with_(postal_press=postal, observer_press=observers)


def _option_value(game: Game, options: GameOptions, key: str, value: str) -> GameOptions:
    """The options with ``key`` set to ``value`` as the GM wrote it (``SET NMR excuse:2``)."""
    if key == "press":
        return _press_value(game, options, value)
    if key == "nmr":
        policy = nmr_policy(value)
        if policy is None:
            raise DomainError("bad_option", "NMR policy is cd, hold, wait, dismiss or excuse:N")
        return options.with_(nmr=policy)
    if key == "reminder_hours":
        try:
            return options.with_(reminder_hours=float(value))
        except ValueError as error:
            raise DomainError("bad_option", "hours must be a number") from error
    if key == "early_minutes":
        return _early_value(options, value)
    if key == "draw_expires":  # SET DRAW EXPIRES PHASE|NEVER (issue 28.12)
        return options.with_(draw_expires=draw_expiry_choice(value))
    if key == "timezone":
        zone = value.title() if "/" in value else value.upper()
        try:
            ZoneInfo(zone)
        except Exception as error:
            raise DomainError("bad_option", f"unknown time zone '{value}'") from error
        return options.with_(timezone=zone)
    if key in _CHOICES:
        value = value.replace("-", "_").replace(" ", "_")
        if value not in _CHOICES[key]:
            raise DomainError("bad_option", f"{key} is one of {', '.join(_CHOICES[key])}")
        return options.with_(**{key: Layout(value) if key == "layout" else value})
    raise DomainError("unknown_option", f"unknown option '{key}'")


def set_option(judge: Judge, uow: UnitOfWork, actor: Actor, key: str, value: str) -> str:
    """A game option: nmr, layout, orders, press, timezone, reminder_hours, early_minutes, takeover,
    draw_expires; returns the value stored, as the GM reads it.  A change is audited and told to the
    players (``setting_notice``)."""
    game = gm_game(uow, actor)
    value = value.strip().lower()
    options = options_of(game)
    before = option_shown(options, game.press, key) if key in OPTION_LABELS else ""
    changed = _option_value(game, options, key, value)
    store_options(game, changed)
    after = option_shown(changed, game.press, key)
    stored = {"press": after, "early_minutes": _early_shown(changed, value), "draw_expires": changed.draw_expires,
              "nmr": changed.nmr.text, "layout": str(changed.layout)}.get(key, value.replace("-", "_").replace(" ", "_")
                                                                            if key in _CHOICES else value)
    change = (OPTION_LABELS.get(key, key), before, after)
    audit(uow, actor, game, "set", key=key, value=stored, changes=[change] if before != after else [])
    record_change(uow, game, *change)
    return stored


def _early_shown(options: GameOptions, value: str) -> str:
    if not options.early:
        return "off"
    if value in ("on", "yes"):
        return "on"
    return f"{options.early_minutes:g} minutes"


def pause(judge: Judge, uow: UnitOfWork, actor: Actor) -> None:
    game = _running(uow, actor)
    game.status, game.paused_reason = GameStatus.PAUSED, "paused by the master"
    audit(uow, actor, game, "pause")
    mail_game(uow, judge, game, *judge.templates.notice("paused", game=game.name))


def resume(judge: Judge, uow: UnitOfWork, actor: Actor) -> datetime | None:
    """Restart the clock; returns the new deadline."""
    game = gm_game(uow, actor)
    if game.status != GameStatus.PAUSED:
        raise DomainError("not_paused", "the game is not paused")
    resume_game(uow, judge, game)
    audit(uow, actor, game, "resume")
    return game.deadline


def eject(judge: Judge, uow: UnitOfWork, actor: Actor, who: str) -> None:
    """Remove a player (by power or address); the power is opened for TAKEOVER."""
    db = uow.session
    game = gm_game(uow, actor)
    pid = book_of(judge, game).find(who)
    seat = queries.seat_for_power(db, game.id, pid) if pid else next(
        (s for s in game.players if s.email == who.lower()), None)
    if seat is None:
        raise DomainError("no_player", f"no player '{who}'")
    if seat.role == SeatRole.OBSERVER:
        db.delete(seat)
    else:
        seat.status = SeatStatus.ABANDONED
        seat.reply_token = new_token()  # its personal reply address no longer signs anyone on
    audit(uow, actor, game, "eject", who=who)


def replace(judge: Judge, uow: UnitOfWork, actor: Actor, power: str, address: str, password: str | None = None) -> Replaced:
    """Give a power to a new player (a password is made up when none is given)."""
    db = uow.session
    game = gm_game(uow, actor)
    book = book_of(judge, game)
    pid = book.find(power)
    seat = queries.seat_for_power(db, game.id, pid) if pid else None
    if seat is None:
        raise DomainError("unknown_power", f"no power '{power}'")
    address = check_player_address(address, judge.settings.judge_address)
    # The new address must agree first (issue 29), unless it is the seat's already, the actor's own proven
    # one, or it asked for this very power itself (a TAKEOVER request, which ran only once it confirmed).
    asked = requested_password_hash(uow, game, seat.power or "", address) is not None
    if seat.email.lower() != address and not actor.owns(address) and not asked:
        ask_address_confirmation(judge, uow, asked_by=actor.address, address=address, what="replace", game=game,
                                 player_id=seat.id, secret=hash_password(password) if password else None)
        audit(uow, actor, game, "replace_asked", power=pid, address=address)
        return Replaced(book.name(seat.power or ""), address, pending=True)
    return seat_replacement(judge, uow, game, seat, address, actor, password=password)


def seat_replacement(judge: Judge, uow: UnitOfWork, game: Game, seat: Player, address: str, who: Actor | str, *,
                     password: str | None = None, password_hash: str | None = None) -> Replaced:
    """Give ``seat`` to ``address`` now (it confirmed, or is the GM's own): the GM's password (or its
    hash), or the one the player chose asking to take it over, or a new one mailed to the player."""
    book = book_of(judge, game)
    previous = seat.email
    chosen = None if password or password_hash else requested_password_hash(uow, game, seat.power or "", address)
    password = password or ("" if chosen or password_hash else new_token()[:10])
    seat.email, seat.password_hash = address, chosen or password_hash or hash_password(password)
    new_player(seat)
    audit(uow, who, game, "replace", power=seat.power, address=seat.email)
    name = book.name(seat.power or "")
    if previous.lower() != seat.email:
        tell_previous_player(uow, judge, game, previous, name)
    told = ("Your password is the one you chose when you asked to take it over." if chosen
            else "Your password is the one the game master chose: ask the game master." if not password
            else f"Your password is {password}.")
    subject, body = judge.templates.notice("replaced_you", game=game.name, power=name, named=full_stop(name),
                                           told=told)
    mail_seat(uow, judge, seat, subject, body + welcome_text(judge, uow, game, seat, name), kind="start")
    mail_game(uow, judge, game, *judge.templates.notice("replaced_board", game=game.name, power=name),
              kind="notice", skip=seat)
    if game.status == GameStatus.PAUSED and game.paused_reason == "waiting for a replacement" and not any(
            s.status == SeatStatus.ABANDONED for s in game.players):
        resume_game(uow, judge, game)
    return Replaced(name, seat.email)


def add_note(judge: Judge, uow: UnitOfWork, actor: Actor, text: str) -> None:
    """A GM note, published with the next results."""
    game = gm_game(uow, actor)
    add_gm_note(uow, game, text[:1000])
    audit(uow, actor, game, "note", text=text[:1000])


def terminate(judge: Judge, uow: UnitOfWork, actor: Actor) -> None:
    game = gm_game(uow, actor)
    game.status, game.deadline = GameStatus.TERMINATED, None
    audit(uow, actor, game, "terminate")
    mail_game(uow, judge, game, *judge.templates.notice("terminated", game=game.name))
