"""APScheduler wiring only: a periodic tick that calls the deadline service."""

from __future__ import annotations

import logging

from apscheduler.schedulers.background import BackgroundScheduler

from app.services.context import Judge
from app.services.deadlines import tick

__all__ = ["make_scheduler"]

log = logging.getLogger(__name__)


def _tick(judge: Judge) -> None:
    try:
        report = tick(judge)
    except Exception:
        log.exception("scheduler tick failed")
        return
    if report.processed or report.paused or report.graced:
        log.info("tick: processed %s, grace %s, paused %s", report.processed, report.graced, report.paused)


def make_scheduler(judge: Judge, interval: float | None = None) -> BackgroundScheduler:
    """A scheduler (not started) that ticks every ``interval`` seconds; one tick at a time."""
    scheduler = BackgroundScheduler(timezone="UTC")
    scheduler.add_job(_tick, "interval", args=[judge], seconds=interval or judge.settings.tick_seconds,
                      id="judge-tick", max_instances=1, coalesce=True, next_run_time=None)
    return scheduler
