"""The composition root: builds the judge from the settings and wires the doors, the scheduler
and the services together.  Nothing else imports the mail door, the scheduler and the services
at once; the command line (``judge serve``, ``judge tick`` …) starts from here.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from app.db.migrate import upgrade
from app.db.session import make_engine, make_sessionmaker
from app.mail.inbox import ImapInbox, Inbox, MaildirInbox
from app.mail.maildir import deliver
from app.mail.outbound.drain import LOOP as DRAIN
from app.mail.outbound.drain import run_drain
from app.mail.outbound.mailer import MaildirMailer, Mailer, SmtpMailer
from app.mail.runners.poller import LOOP as POLLER
from app.mail.runners.poller import run_poller
from app.scheduler import LOOP as SCHEDULER
from app.scheduler import make_scheduler, scheduler_alive
from app.services.kernel.context import Judge
from app.services.kernel.crashpoints import CrashPoints
from app.settings import Settings
from app.supervisor import supervise, supervise_async
from app.web.serve import serve_dashboard

__all__ = ["build_judge", "inbox_writer", "make_inbox", "make_mailer", "serve"]

log = logging.getLogger(__name__)


def build_judge(settings: Settings, *, migrate: bool = True) -> Judge:
    """The service container: migrated database, sessions, the engine, the clock, crash points."""
    if migrate:
        upgrade(settings.database_url)
    engine = make_engine(settings.database_url)
    return Judge(settings=settings, sessions=make_sessionmaker(engine), crash=CrashPoints())


def make_inbox(settings: Settings) -> Inbox:
    if settings.mail_mode == "imap":
        return ImapInbox(settings.imap_host, settings.imap_port, settings.imap_user, settings.imap_password,
                         ssl=settings.imap_ssl, folder=settings.imap_folder,
                         processed_folder=settings.imap_processed_folder,
                         quarantine_folder=settings.imap_quarantine_folder, poll_interval=settings.poll_seconds)
    return MaildirInbox(settings.maildir_inbox, poll_interval=min(settings.poll_seconds, 0.5))


def make_mailer(settings: Settings) -> Mailer:
    if settings.mail_mode == "imap":
        return SmtpMailer(settings.smtp_host, settings.smtp_port, username=settings.smtp_user or None,
                          password=settings.smtp_password or None, starttls=settings.smtp_starttls)
    return MaildirMailer(settings.maildir_outbox)


async def _serve(judge: Judge, inbox: Inbox, mailer: Mailer, stop: asyncio.Event, thread_stop: threading.Event,
                 scheduler: bool) -> None:
    """The three loops under supervision (``app.supervisor``), watched by ``judge.health`` (``/healthz``)."""
    settings = judge.settings
    health = judge.health
    health.stale_after, health.busy_limit = settings.health_stale_seconds, settings.health_busy_seconds
    health.failing_after = settings.health_failing_seconds
    # A round of the poller or the drain takes seconds (the IMAP and SMTP clients time out): one
    # under way for longer than the stale limit hangs.  A scheduler's tick may run a long turn.
    stale = settings.health_stale_seconds
    health.watch(POLLER, stale_after=max(stale, 3 * settings.poll_seconds), busy_limit=stale)
    health.watch(DRAIN, busy_limit=stale)
    poller = supervise(POLLER, lambda: run_poller(judge, inbox, thread_stop, wait=settings.poll_seconds), health,
                       thread_stop)
    ticker = None
    if scheduler:
        health.watch(SCHEDULER, stale_after=max(stale, 3 * settings.tick_seconds))
        ticker = supervise(SCHEDULER, lambda: _run_scheduler(judge, thread_stop), health, thread_stop)
    dashboard = asyncio.create_task(_dashboard(judge, stop)) if settings.web_port else None
    try:
        await supervise_async(DRAIN, lambda: run_drain(judge, mailer, stop, interval=min(1.0, settings.poll_seconds)),
                              health, stop)
    finally:
        stop.set()
        if dashboard is not None:
            await dashboard
        thread_stop.set()
        if ticker is not None:
            ticker.join(timeout=60)
        poller.join(timeout=30)


def _run_scheduler(judge: Judge, stop: threading.Event) -> None:
    """The scheduler's thread, watched: raises (for the supervisor to restart it) when it died."""
    sched = make_scheduler(judge)
    sched.start()
    try:
        sched.modify_job("judge-tick", next_run_time=datetime.now(UTC))
        while not stop.wait(1.0):
            if not scheduler_alive(sched):
                raise RuntimeError("the scheduler's thread is gone")
    finally:
        if sched.running:
            sched.shutdown(wait=stop.is_set())


def inbox_writer(settings: Settings) -> Callable[[bytes], object] | None:
    """Embedded mode: how the dashboard's mailbox drops a player's mail into the judge's inbox."""
    if settings.mail_mode != "embedded":
        return None
    return lambda raw: deliver(Path(settings.maildir_inbox), raw)


async def _dashboard(judge: Judge, stop: asyncio.Event) -> None:
    """The GM dashboard beside the mail; if it cannot start (port taken), the mail goes on without it."""
    settings = judge.settings
    try:
        await serve_dashboard(judge, stop, host=settings.web_host, port=settings.web_port,
                              keeper_address=settings.admin_address, secure_cookies=settings.web_secure_cookies,
                              inbox_writer=inbox_writer(settings))
    except (OSError, SystemExit) as error:  # uvicorn exits when it cannot bind
        log.error("the dashboard could not start on %s:%s (%s); mail goes on without it",
                  settings.web_host, settings.web_port, error)


def serve(settings: Settings, *, scheduler: bool = True) -> int:
    """Mail in (the poller thread), turns on time (the scheduler), mail out (the drain) and the GM
    dashboard (unless ``web_port`` is 0) until a signal."""
    judge = build_judge(settings)
    inbox = make_inbox(settings)
    mailer = make_mailer(settings)
    stop = asyncio.Event()
    thread_stop = threading.Event()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await _serve(judge, inbox, mailer, stop, thread_stop, scheduler)

    log.info("judge serving: %s mail, database %s", settings.mail_mode, settings.database_url.split("@")[-1])
    if settings.mail_mode == "imap" and not settings.authserv_id.strip():
        log.warning("JUDGE_AUTHSERV_ID is not set: no Authentication-Results header is believed, so no "
                    "forged From line is recognised (docs/commands.md, \"Forged mail\")")
    asyncio.run(main())
    return 0
