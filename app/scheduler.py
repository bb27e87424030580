"""The scheduler job: a periodic tick over the deadline use cases (``app.services.turns.deadlines``).

Each step of a tick is the job's own unit of work, committed once: the heartbeat (outage guard),
the list of due games, each due game's turn (or its grace period, or its NMR policy), the
reminders.  A game whose turn fails is rolled back and left as it was; the tick goes on with the
next.  APScheduler runs one tick at a time in a process; several processes may tick at once.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from apscheduler.schedulers.background import BackgroundScheduler
from sqlalchemy.exc import IntegrityError

from app.services.bootstrap import unit_of_work
from app.services.kernel.context import Judge
from app.services.kernel.outcome import ProcessError
from app.services.kernel.uow import UnitOfWork
from app.services.turns.deadlines import TickReport, check_outage, due_game_ids, process_first_due, send_reminders

__all__ = ["LOOP", "make_scheduler", "scheduler_alive", "tick"]

log = logging.getLogger(__name__)
LOOP = "scheduler"
"""The name of the loop in ``judge.health`` (``/healthz``)."""
_AT_ONCE = 3  # phases of one game a tick may process one after the other

Units = Callable[[], UnitOfWork]


def tick(judge: Judge, units: Units | None = None) -> TickReport:
    """One scheduler tick; safe to run in several processes at once.  ``units`` opens the job's
    units of work (default: ``unit_of_work(judge)``)."""
    units = units or (lambda: unit_of_work(judge))
    report = TickReport()
    try:
        with units() as uow:
            check_outage(uow, judge, report)
            uow.commit()
    except IntegrityError:
        pass  # another process wrote the first heartbeat at the same moment
    with units() as uow:
        pending = deque(due_game_ids(uow, judge.now()))
    while pending:
        tried: list[int] = []
        try:
            at_once = _process_first_due(judge, units, pending, report, tried)
        except Exception:
            log.exception("processing game %s failed", tried[-1] if tried else None)
            continue
        for _ in range(_AT_ONCE - 1):  # a phase due at once after this one (turn_disorder.due_at_once)
            if not at_once:
                break
            try:
                at_once = _process_first_due(judge, units, deque(tried[-1:]), report, [])
            except Exception:
                log.exception("processing game %s failed", tried[-1])
                break
    with units() as uow:
        send_reminders(uow, judge, report)
        uow.commit()
    return report


def _process_first_due(judge: Judge, units: Units, candidates: deque[int], report: TickReport,
                       tried: list[int]) -> bool:
    """One unit of work: the first due game of ``candidates`` this process can lock."""
    try:
        with units() as uow:
            at_once = process_first_due(uow, judge, candidates, report, tried)
            uow.commit()
            return at_once
    except ProcessError as error:
        log.info("skipped game %s: %s", tried[-1] if tried else None, error)
        return False


def _tick(judge: Judge) -> None:
    judge.health.begin(LOOP)
    try:
        report = tick(judge)
    except Exception as error:
        judge.health.failed(LOOP, error)
        log.exception("scheduler tick failed")
        return
    judge.health.ok(LOOP)
    if report.processed or report.paused or report.graced:
        log.info("tick: processed %s, grace %s, paused %s", report.processed, report.graced, report.paused)


def make_scheduler(judge: Judge, interval: float | None = None) -> BackgroundScheduler:
    """A scheduler (not started) that ticks every ``interval`` seconds; one tick at a time."""
    scheduler = BackgroundScheduler(timezone="UTC")
    scheduler.add_job(_tick, "interval", args=[judge], seconds=interval or judge.settings.tick_seconds,
                      id="judge-tick", max_instances=1, coalesce=True, next_run_time=None)
    return scheduler


def scheduler_alive(scheduler: Any) -> bool:
    """Whether a started scheduler still runs its thread (the supervisor restarts it when not)."""
    thread = getattr(scheduler, "_thread", None)
    return bool(scheduler.running) and (thread is None or thread.is_alive())
