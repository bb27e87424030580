"""The scheduler's use cases: deadlines, grace periods, NMR policy, reminders, the outage guard.

Each takes the session of the job's unit of work (``app.scheduler.tick`` opens one per step and
commits it once); none opens a transaction of its own."""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import and_, bindparam, exists, or_, select
from sqlalchemy.orm import joinedload

from app.db import queries
from app.db.models import AuditEntry, Game, GmNote, JudgeState, Phase, Player
from app.db.models_web import CoMaster
from app.db.statuses import GameStatus, PhaseStatus, SeatStatus
from app.services.kernel.access import book_of
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_game, mail_master, mail_seat
from app.services.orders import submit as order_service
from app.services.ruleset.options import Dismiss, Excuse, Hold, Wait, options_of, reminder_hours_of
from app.services.ruleset.powers import full_stop
from app.services.seats.absence import ABSENCE, clear_of_absences
from app.services.turns.disorder import announce_abandoned
from app.services.turns.map_turn import everyone_ready, late_powers
from app.services.turns.process import process_turn

__all__ = ["TickReport", "check_early", "check_outage", "due_game_ids", "process_first_due", "resume_game",
           "send_reminders"]


@dataclass
class TickReport:
    processed: list[str] = field(default_factory=list)
    reminded: list[str] = field(default_factory=list)
    graced: list[str] = field(default_factory=list)
    paused: list[str] = field(default_factory=list)


def check_early(uow: UnitOfWork, judge: Judge, game: Game) -> None:
    """After orders or WAIT change: when everyone is ready, the phase runs once the game's quiet
    period (``SET EARLY minutes``) has passed since this last change; otherwise back to the deadline."""
    options = options_of(game)
    if game.status != GameStatus.ACTIVE or not options.early:
        return
    phase = uow.open_phase_of(game)
    if phase is None:
        return
    now = judge.now()
    if everyone_ready(uow, game, phase):
        early = now + timedelta(minutes=options.early_minutes)
        limit = phase.deadline if game.grace_until is None else game.grace_until
        game.deadline = min(early, limit) if limit is not None else early
    elif phase.deadline is not None and game.deadline is not None and game.deadline < phase.deadline \
            and game.grace_until is None:
        game.deadline = phase.deadline


def check_outage(uow: UnitOfWork, judge: Judge, report: TickReport) -> None:
    """The tick's heartbeat: if the server was down past a deadline, pause those games and tell
    their GMs.  Two processes writing the first heartbeat at once: the second's commit fails
    (IntegrityError), which the job ignores."""
    db = uow.session
    now = judge.now()
    limit = timedelta(minutes=judge.settings.outage_minutes)
    row = db.get(JudgeState, "last_tick", with_for_update=True)
    if row is None:
        db.add(JudgeState(name="last_tick", value=now))
        return
    last = row.value
    row.value = now
    if last is None or now - last <= limit:
        return
    games = db.scalars(
        select(Game).where(Game.status == GameStatus.ACTIVE, Game.deadline.is_not(None), Game.deadline > last,
                           Game.deadline <= now)
    ).all()
    for game in games:
        game.status = GameStatus.PAUSED
        game.paused_reason = "outage"
        subject, body = judge.templates.notice("outage_paused", game=game.name, phase=game.phase,
                                               since=format_deadline(last), until=format_deadline(now))
        mail_master(uow, judge, game, subject, body, kind="outage")
        report.paused.append(game.name)


_DUE = (select(Game.id).where(Game.status == GameStatus.ACTIVE,
                               or_(Game.deadline <= bindparam("now"), Game.grace_until <= bindparam("now")))
        .order_by(Game.deadline))  # built once


def due_game_ids(uow: UnitOfWork, now: datetime) -> list[int]:
    """The games whose deadline or grace period has passed, the earliest deadline first."""
    db = uow.session
    return list(db.scalars(_DUE, {"now": now}))


# What a turn would otherwise ask for one statement each, and seldom finds: whether the game has
# GM's notes, unpublished postal press, co-GMs, absences (the turn asks only for those it has).
_ANY = {
    "gm_notes": exists().where(GmNote.game_id == Game.id),
    "press": exists().where(queries.unpublished_postal(Game.id)),
    "co_masters": exists().where(CoMaster.game_id == Game.id),
    "absences": exists().where(AuditEntry.game_id == Game.id, AuditEntry.action == ABSENCE),
}

# A due game, locked for the turn with its seats and its open phase (and what it has of ``_ANY``);
# one another process holds is skipped (SKIP LOCKED on PostgreSQL) as is one no longer due
# (processed meanwhile): neither is locked.  Built once.
_LOCK_DUE = (select(Game, Phase, *(found.label(kind) for kind, found in _ANY.items()))
             .outerjoin(Phase, and_(Phase.game_id == Game.id, Phase.status == PhaseStatus.OPEN))
             .where(Game.id == bindparam("game_id"), Game.status == GameStatus.ACTIVE,
                    or_(Game.deadline <= bindparam("now"), Game.grace_until <= bindparam("now")))
             .order_by(Phase.seq.desc())
             .with_for_update(skip_locked=True, of=Game).options(joinedload(Game.players))
             .execution_options(populate_existing=True))


def _lock_due(uow: UnitOfWork, judge: Judge, game_id: int) -> Game | None:
    db = uow.session
    now = judge.now()
    found = db.execute(_LOCK_DUE, {"game_id": game_id, "now": now}).unique().first()
    if found is None:
        return None
    game, phase, *has = found
    uow.remember_lock(game)
    if phase is not None:
        uow.remember_open_phase(game, phase)  # the latest open phase, as queries.open_phase reads it
    for kind, any_found in zip(_ANY, has, strict=True):
        if not any_found:
            uow.found_none(kind, game.id)
    if game.status != GameStatus.ACTIVE:
        return None
    due = (game.deadline is not None and game.deadline <= now) or (
        game.grace_until is not None and game.grace_until <= now)
    return game if due else None


def _jump(length: int) -> int:
    """Where a scheduler that met another goes on in its list of ``length`` due games."""
    return random.randrange(length) if length > 1 else 0


def _lock_first_due(uow: UnitOfWork, judge: Judge, candidates: deque[int], tried: list[int]) -> Game | None:
    """The first game of ``candidates`` still due that no other process holds, locked; each one
    tried is taken off (``tried``): it is this one, or another process has it or had it.  A game
    skipped costs one statement of this transaction, not a transaction of its own.  After one,
    another process works along the same list: this one keeps what is still due and goes on from
    a place chosen at random in it (two processes taking turns down one list would each skip every
    other game, and then try each game the other had; three or more, each jumping to the middle,
    met each other there again: 3,136 misses, each a read of every due game, in a storm of 4,000
    games; at random, they skip a few where they meet)."""
    db = uow.session
    while candidates:
        tried.append(candidates.popleft())
        game = _lock_due(uow, judge, tried[-1])
        if game is not None:
            return game
        if candidates:
            due = set(db.scalars(_DUE, {"now": judge.now()}))
            left = [game_id for game_id in candidates if game_id in due]
            candidates.clear()
            candidates.extend(left)
            candidates.rotate(-_jump(len(candidates)))
    return None


def process_first_due(uow: UnitOfWork, judge: Judge, candidates: deque[int], report: TickReport,
                      tried: list[int]) -> bool:
    """For the first game of ``candidates`` it can lock (``_lock_first_due``): decide grace / NMR
    policy, or process its turn; whether the next phase is due at once.  ``ProcessError`` when the
    turn cannot be processed: the job rolls back and goes on with the next game."""
    judge.crash("tick:before_lock")
    game = _lock_first_due(uow, judge, candidates, tried)
    if game is None:
        return False
    judge.crash("tick:locked")
    phase = uow.open_phase_of(game)  # remembered for the turn
    if phase is None:
        return False
    if _policy_holds_the_turn(uow, judge, game, phase, report):
        return False
    judge.crash("tick:policy_applied")
    # The turn counts each missed deadline and applies the NMR policy to it (turns/disorder.py
    # apply_missed_deadlines), as it does when the GM processes the phase after its deadline.
    outcome = process_turn(uow, judge, game)
    report.processed.append(game.name)
    return outcome.due_at_once


def _policy_holds_the_turn(uow: UnitOfWork, judge: Judge, game: Game, phase: Phase, report: TickReport) -> bool:
    """The game's NMR policy at a deadline with powers late: whether it holds the turn back (the
    misses excused, the game paused for replacements, a grace period begun)."""
    options = options_of(game)
    if isinstance(options.nmr, Hold):  # the turn's own reading of the orders finds who sent none
        return False
    late = late_powers(uow, game, phase)
    if not late:
        return False
    match options.nmr:
        case Excuse(misses=allowed) if _excuse(uow, judge, game, phase, late, allowed):
            report.graced.append(game.name)
            return True
        case Wait():
            _wait_for_replacements(uow, judge, game, phase, late)
            report.paused.append(game.name)
            return True
    if _begin_grace(uow, judge, game, phase, late):
        report.graced.append(game.name)
        return True
    return False


def _excuse(uow: UnitOfWork, judge: Judge, game: Game, phase: Phase, late: list[Player], allowed: int) -> bool:
    """``Excuse(n)``: the deadline moves for the late powers with misses left to excuse; whether any had."""
    excused = [s for s in late if s.misses < allowed]
    if not excused:
        return False
    extend = timedelta(hours=options_of(game).timing(phase.code).next_hours)
    game.deadline = clear_of_absences(uow, game, (game.deadline or judge.now()) + extend)
    for seat in excused:
        seat.misses += 1
        subject, body = judge.templates.notice("miss_excused", game=game.name, phase=phase.code,
                                               misses=seat.misses, allowed=allowed,
                                               deadline=format_deadline(game.deadline))
        mail_seat(uow, judge, seat, subject, body, kind="late")
    return True


def _wait_for_replacements(uow: UnitOfWork, judge: Judge, game: Game, phase: Phase, late: list[Player]) -> None:
    """``Wait``: the late powers are abandoned and the game pauses until new players take them."""
    for seat in late:
        seat.status = SeatStatus.ABANDONED
    game.status, game.paused_reason = GameStatus.PAUSED, "waiting for a replacement"
    names = ", ".join(book_of(judge, game).name(s.power or "?") for s in late)
    mail_master(uow, judge, game, *judge.templates.notice("waits_for_replacements", game=game.name, powers=names,
                                                         phase=phase.code))
    announce_abandoned(uow, judge, game, late, f"was abandoned: no orders for {phase.code}; "
                                              f"the game waits for a new player", master=False)


def _begin_grace(uow: UnitOfWork, judge: Judge, game: Game, phase: Phase, late: list[Player]) -> bool:
    """The late are told their grace period began (the game's grace for this kind of phase, once a
    deadline); whether it did."""
    options = options_of(game)
    grace = options.timing(phase.code).grace_hours
    if grace <= 0 or game.grace_until is not None:
        return False
    game.grace_until = (game.deadline or judge.now()) + timedelta(hours=grace)
    game.deadline = None
    for seat in late:
        mail_seat(uow, judge, seat, *judge.templates.notice(
            "late_notice", game=game.name, phase=phase.code, missed=format_deadline(phase.deadline),
            grace_ends=format_deadline(game.grace_until), dismiss=isinstance(options.nmr, Dismiss)), kind="late")
    names = ", ".join(book_of(judge, game).name(s.power or "?") for s in late)
    mail_master(uow, judge, game, *judge.templates.notice("late_powers", game=game.name, phase=phase.code,
                                                         powers=full_stop(names)), kind="late")
    return True


# The games that may owe a reminder: active, before their deadline, not reminded of this phase; only
# what deciding needs (no game objects: every active game is looked at, each tick).  Built once.
_UNREMINDED = (select(Game.id, Game.deadline, Game.settings)
               .where(Game.status == GameStatus.ACTIVE, Game.deadline > bindparam("now"),
                      or_(Game.reminded_phase.is_(None), Game.reminded_phase != Game.phase)))


def send_reminders(uow: UnitOfWork, judge: Judge, report: TickReport) -> None:
    """Remind the players still without orders, once a phase, ``SET REMINDER hours`` before the deadline.
    The games are looked at by a few columns; only those whose reminder is due are loaded."""
    db = uow.session
    now = judge.now()
    due = [game_id for game_id, deadline, settings in db.execute(_UNREMINDED, {"now": now})
           if (hours := reminder_hours_of(settings)) > 0 and deadline - timedelta(hours=hours) <= now]
    for game_id in due:
        game = db.get(Game, game_id)
        if game is None or game.reminded_phase == game.phase or game.deadline is None:
            continue
        phase = queries.open_phase(db, game.id)
        if phase is None:
            continue
        game.reminded_phase = game.phase
        for seat, status in order_service.seat_statuses(uow, game, phase):
            if not status.needs_orders or status.complete or seat.status != SeatStatus.ACTIVE:
                continue
            missing = ", ".join(status.missing) or f"{status.builds_missing} adjustment orders"
            mail_seat(uow, judge, seat, *judge.templates.notice(
                "reminder", game=game.name, phase=game.phase, deadline=format_deadline(game.deadline),
                missing=missing), kind="reminder")
        report.reminded.append(game.name)


def resume_game(uow: UnitOfWork, judge: Judge, game: Game) -> None:
    db = uow.session
    now = judge.now()
    game.status, game.paused_reason = GameStatus.ACTIVE, None
    phase = queries.open_phase(db, game.id)
    if game.deadline is None or game.deadline < now:
        hours = options_of(game).timing(game.phase or "S1901M").grace_hours or 24
        game.deadline = clear_of_absences(uow, game, now + timedelta(hours=max(hours, 1)))
        if phase is not None:
            phase.deadline = game.deadline
    mail_game(uow, judge, game, *judge.templates.notice("resumed", game=game.name, phase=game.phase,
                                                       deadline=format_deadline(game.deadline)), kind="notice")


