"""The one settings class of the server: environment variables prefixed ``JUDGE_``.

=============================  =====================================  =========================================
variable                       default                                meaning
=============================  =====================================  =========================================
JUDGE_DATABASE_URL             sqlite:///var/judge.sqlite3            SQLAlchemy URL; production:
                                                                      postgresql+psycopg://user:pw@host/db
JUDGE_MAIL_MODE                embedded                               embedded (maildir folders under var/mail)
                                                                      or imap (IMAP in, SMTP out)
JUDGE_HOME                     the project folder                     relative paths below (var/...) are
                                                                      read from here, never from the
                                                                      working directory
JUDGE_MAILDIR_INBOX            var/mail/inbox                         embedded: the judge's inbox
                                                                      (``judge mail send`` drops mail here)
JUDGE_MAILDIR_OUTBOX           var/mail/outbox                        embedded: one maildir per recipient
                                                                      (``judge mail read ADDRESS``)
JUDGE_IMAP_HOST / _PORT        127.0.0.1 / 143                        imap: the judge's mailbox
JUDGE_IMAP_USER / _PASSWORD    judge@judge.test / ""
JUDGE_IMAP_SSL                 false
JUDGE_IMAP_FOLDER              INBOX                                  read from here; done mail moves to
JUDGE_IMAP_PROCESSED_FOLDER    Processed                              Processed, failures to Quarantine
JUDGE_IMAP_QUARANTINE_FOLDER   Quarantine
JUDGE_SMTP_HOST / _PORT        127.0.0.1 / 25                         imap: where mail is sent
JUDGE_SMTP_USER / _PASSWORD    "" / ""
JUDGE_SMTP_STARTTLS            false
JUDGE_JUDGE_ADDRESS            judge@judge.test                       From of every mail; replies to
                                                                      judge+TOKEN@domain sign players on
JUDGE_JUDGE_ID                 PJDG                                   the ``:: Judge:`` id in results
JUDGE_ADMIN_ADDRESS            judgekeeper@judge.test                 told about quarantined mail; on the
                                                                      dashboard, sees every game
JUDGE_WEB_HOST                 127.0.0.1                              the dashboard's address (0.0.0.0 in a
                                                                      container)
JUDGE_WEB_PORT                 8000                                   the dashboard's port; 0: no dashboard
JUDGE_WEB_SECURE_COOKIES       false                                  true behind https
JUDGE_WEB_TRUSTED_PROXIES      "" (none)                              the reverse proxies (addresses or
                                                                      networks, comma-separated) whose
                                                                      X-Forwarded-For names the client;
                                                                      from others it is ignored
JUDGE_TICK_SECONDS             20                                     scheduler tick (deadlines, reminders)
JUDGE_POLL_SECONDS             5                                      inbox wait between polls (IMAP IDLE
                                                                      wakes up earlier)
JUDGE_MAX_ATTEMPTS             3                                      tries before a mail is quarantined
JUDGE_OUTAGE_MINUTES           60                                     down longer past a deadline: the game
                                                                      pauses and its GM is mailed
JUDGE_MAX_EXTENSION_DAYS       14                                     cap of SET DEADLINE and of the hours
                                                                      of SET MOVE|RETREAT|ADJUST NEXT|GRACE
JUDGE_OUTBOX_LEASE_SECONDS     300                                    a mail claimed by a sender that died is
                                                                      sent again after this (same Message-ID)
JUDGE_AUTHSERV_ID              "" (none)                              the authserv-id of the judge's own mail
                                                                      server's Authentication-Results header
                                                                      (RFC 8601); SPF/DMARC fail: a stranger
                                                                      (docs/commands.md "Forged mail";
                                                                      docker-compose.yml sets it)
JUDGE_ANSWER_BUDGET            3                                      answers an hour to a sender whose mails
                                                                      have no command (loop guard)
JUDGE_STRANGER_BUDGET          5                                      answers an hour in all to an address that
                                                                      is no player, observer or GM of record
JUDGE_STRANGER_CAP             30                                     answers an hour to all such addresses
                                                                      together (confirmations included); past
                                                                      it mail is held, the judgekeeper told once
JUDGE_CONFIRM_HOURS            48                                     a confirmation (JOIN, OBSERVE, CREATE,
                                                                      TAKEOVER by mail) expires after this
JUDGE_CREATES_PER_DAY          5                                      games one address may CREATE in 24 hours
JUDGE_OBSERVER_SEATS           10                                     observer seats one address may hold
JUDGE_ABSENCE_CAP_DAYS         14                                     days of absence a player may take in any
JUDGE_ABSENCE_WINDOW_DAYS      60                                     window of this many days (GRANT ABSENCE)
JUDGE_CRASH_AT                 (unset)                                tests only: die at a named crash point
=============================  =====================================  =========================================
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["PROJECT_DIR", "Settings"]

PROJECT_DIR = Path(__file__).resolve().parent.parent
_SQLITE = "sqlite:///"


class Settings(BaseSettings):
    """Server configuration.  Nothing reads the environment until a ``Settings()`` is built."""

    model_config = SettingsConfigDict(env_prefix="JUDGE_", extra="ignore")

    home: Path = PROJECT_DIR
    database_url: str = "sqlite:///var/judge.sqlite3"
    mail_mode: Literal["embedded", "imap"] = "embedded"

    # Embedded mode: maildir folders under var/.
    maildir_inbox: Path = Path("var/mail/inbox")
    maildir_outbox: Path = Path("var/mail/outbox")

    # Production mode: IMAP in, SMTP out.
    imap_host: str = "127.0.0.1"
    imap_port: int = 143
    imap_user: str = "judge@judge.test"
    imap_password: str = ""
    imap_ssl: bool = False
    imap_folder: str = "INBOX"
    imap_processed_folder: str = "Processed"
    imap_quarantine_folder: str = "Quarantine"
    smtp_host: str = "127.0.0.1"
    smtp_port: int = 25
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = False

    judge_address: str = "judge@judge.test"
    judge_id: str = "PJDG"
    admin_address: str = "judgekeeper@judge.test"
    web_host: str = "127.0.0.1"
    web_port: int = 8000
    web_secure_cookies: bool = False
    web_trusted_proxies: str = ""
    tick_seconds: float = 20.0
    poll_seconds: float = 5.0
    max_attempts: int = 3
    # /healthz: a loop (poller, drain, scheduler) without a good round for this long is unhealthy,
    # unless a round is under way since less than health_busy_seconds (a long turn).
    health_stale_seconds: float = 300.0
    health_busy_seconds: float = 3600.0
    # ...and one failing (rounds that fail, an IMAP connection lost again and again) for this long.
    health_failing_seconds: float = 30.0
    outage_minutes: int = 60
    max_extension_days: int = 14
    # A mail claimed by a sender that died mid-send is sent again (same Message-ID) after this.
    outbox_lease_seconds: float = 300.0
    # Security (docs/commands.md, "Limits"): see the table above.
    authserv_id: str = ""
    answer_budget: int = 3
    stranger_budget: int = 5
    stranger_cap: int = 30
    confirm_hours: int = 48
    creates_per_day: int = 5
    observer_seats: int = 10
    absence_cap_days: int = 14
    absence_window_days: int = 60
    templates_dir: Path = Path(__file__).resolve().parent.parent / "templates"

    @model_validator(mode="after")
    def _paths_from_home(self) -> Settings:
        """Relative paths (the defaults under ``var/``) are read from ``home``, so every command
        (``judge mail read`` from any folder) finds the same database and maildirs."""
        home = self.home.expanduser().resolve()
        self.maildir_inbox = home / self.maildir_inbox  # an absolute path stays itself
        self.maildir_outbox = home / self.maildir_outbox
        if self.database_url.startswith(_SQLITE):
            path = self.database_url[len(_SQLITE):]
            if path and not path.startswith("/") and not path.startswith(":memory:"):
                self.database_url = f"{_SQLITE}{home / path}"
        return self

    @property
    def trusted_proxies(self) -> tuple[str, ...]:
        """``web_trusted_proxies`` as a list (addresses or networks)."""
        return tuple(part.strip() for part in self.web_trusted_proxies.split(",") if part.strip())

    @property
    def judge_domain(self) -> str:
        return self.judge_address.rpartition("@")[2]

    @property
    def judge_local(self) -> str:
        return self.judge_address.rpartition("@")[0]

    def confirm_address(self, token: str) -> str:
        """The one-time address whose reply confirms a waiting command (``judge+c-<token>@``)."""
        return f"{self.judge_local}+c-{token}@{self.judge_domain}"

    def token_address(self, token: str) -> str:
        """The personal reply address that signs a player on without a password."""
        return f"{self.judge_local}+{token}@{self.judge_domain}"
