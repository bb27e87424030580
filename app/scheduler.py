"""APScheduler wiring only: a periodic tick that calls the deadline service."""

from __future__ import annotations

import logging
from typing import Any

from apscheduler.schedulers.background import BackgroundScheduler

from app.services.kernel.context import Judge
from app.services.turns.deadlines import tick

__all__ = ["LOOP", "make_scheduler", "scheduler_alive"]

log = logging.getLogger(__name__)
LOOP = "scheduler"
"""The name of the loop in ``judge.health`` (``/healthz``)."""


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
