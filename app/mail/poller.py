"""The inbound loop: fetch from an Inbox, handle each message, flag it done or quarantined."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from app.mail.inbound import handle_raw, pending_ids, process_stored, report_unreadable
from app.services.context import Judge

__all__ = ["poll_once", "run_poller"]

log = logging.getLogger(__name__)


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
            outcome = handle_raw(judge, raw_mail.raw, raw_mail.uid)
        except Exception:  # the database is down, say: leave the message for the next round
            log.exception("could not handle message %s", raw_mail.uid)
            continue
        handled += 1
        judge.crash("poll:before_flag")
        try:
            if outcome.status == "quarantined":
                inbox.quarantine(raw_mail.uid)
            elif outcome.finished:
                inbox.mark_done(raw_mail.uid)
        except Exception:
            log.exception("could not flag message %s", raw_mail.uid)
    return handled


def retry_stored(judge: Judge) -> int:
    """Messages stored but not finished (the process died, or a failure): try them again."""
    count = 0
    for inbound_id in pending_ids(judge):
        process_stored(judge, inbound_id)
        count += 1
    return count


def run_poller(judge: Judge, inbox: Any, stop: threading.Event, *, wait: float = 5.0) -> None:
    """Poll until ``stop`` is set; never stops on one bad message; backs off on errors."""
    backoff = 1.0
    retry_stored(judge)
    while not stop.is_set():
        try:
            poll_once(judge, inbox)
            backoff = 1.0
            inbox.wait_for_mail(wait)
        except Exception:
            log.exception("inbox error; retrying in %.0f s", backoff)
            stop.wait(backoff)
            backoff = min(backoff * 2, 60.0)
    try:
        inbox.close()
    except Exception:
        log.exception("closing the inbox failed")
    time.sleep(0)
