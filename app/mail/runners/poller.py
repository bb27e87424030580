"""The inbound loop: fetch from an Inbox, handle each message, flag it done or quarantined.

One bad mail never holds the rest: a mail whose processing fails is tried again at once, up to
``max_attempts`` tries in all, and then quarantined (``app.mail.runners.inbound``), so every mail of a
batch leaves the inbox in the round that fetched it -- unless the database itself cannot be
reached, when the whole batch waits for the next round.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from app.db.statuses import InboundStatus
from app.mail.runners.inbound import InboundOutcome, handle_raw, pending_ids, process_stored, report_unreadable
from app.services.kernel.context import Judge

__all__ = ["LOOP", "poll_once", "retry_stored", "run_poller"]

log = logging.getLogger(__name__)
LOOP = "poller"
"""The name of the loop in ``judge.health`` (``/healthz``)."""


def _finish(judge: Judge, outcome: InboundOutcome) -> InboundOutcome:
    """Try a failed mail again until it is done or quarantined (each try is counted, so this ends)."""
    for _ in range(judge.settings.max_attempts + 1):
        if outcome.status != InboundStatus.FAILED or outcome.inbound_id is None:
            break
        outcome = process_stored(judge, outcome.inbound_id)
    return outcome


def poll_once(judge: Judge, inbox: Any) -> int:
    """Handle every waiting message once; returns how many were handled."""
    handled = 0
    fetched = inbox.fetch_new()
    for uid, error in getattr(inbox, "take_unreadable", list)():
        try:
            report_unreadable(judge, uid, error)
        except Exception:
            log.exception("could not report the unreadable message %s", uid)
    for raw_mail in fetched:
        try:
            outcome = _finish(judge, handle_raw(judge, raw_mail.raw, raw_mail.uid))
        except Exception:  # the database is down, say: leave the message for the next round
            log.exception("could not handle message %s", raw_mail.uid)
            continue
        handled += 1
        judge.crash("poll:before_flag")
        try:
            if outcome.status == InboundStatus.QUARANTINED:
                inbox.quarantine(raw_mail.uid)
            elif outcome.finished:
                inbox.mark_done(raw_mail.uid)
        except Exception:
            log.exception("could not flag message %s", raw_mail.uid)
    return handled


def retry_stored(judge: Judge) -> int:
    """Messages stored but not finished (the process died, or a failure): try them again.  One that
    cannot be handled now (the database is down) is left for the next call; this never raises for one
    message."""
    count = 0
    for inbound_id in pending_ids(judge):
        try:
            _finish(judge, process_stored(judge, inbound_id))
        except Exception:
            log.exception("could not retry stored message %s", inbound_id)
            continue
        count += 1
    return count


def run_poller(judge: Judge, inbox: Any, stop: threading.Event, *, wait: float = 5.0) -> None:
    """Poll until ``stop`` is set; never stops on one bad message; backs off on errors.  Each round
    that read the inbox is reported to ``judge.health`` (a loop that stops reporting is unhealthy)."""
    backoff = 1.0
    retried = False
    if hasattr(inbox, "on_trouble"):  # a lost connection counts at once, not after the round's retries
        inbox.on_trouble = lambda error: judge.health.trouble(LOOP, error)
    while not stop.is_set():
        try:
            judge.health.begin(LOOP)
            if not retried:
                retry_stored(judge)
                retried = True
            if poll_once(judge, inbox):
                retry_stored(judge)  # held mails a confirmation released (issue 29): answered now
            judge.health.ok(LOOP)
            backoff = 1.0
            inbox.wait_for_mail(wait)
        except Exception as error:
            judge.health.failed(LOOP, error)
            log.exception("inbox error; retrying in %.0f s", backoff)
            stop.wait(backoff)
            backoff = min(backoff * 2, 60.0)
    try:
        inbox.close()
    except Exception:
        log.exception("closing the inbox failed")
