"""End-to-end fixtures: a throwaway PostgreSQL database, the real IMAP and SMTP servers, and
`judge serve` running as a separate process."""

from __future__ import annotations

import imaplib
import os
import secrets
import signal
import smtplib
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from tests.support.databases import PostgresTemplate
from tests.support.shown import shown_text
from tests.support.xdist_groups import mail_ports

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = os.environ.get("JUDGE_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
# Our own instance of the test mail servers (ports and directory of its own), so that other
# test modules starting and stopping theirs never disturb these tests; one a pytest-xdist worker.
IMAP_PORT, SMTP_PORT, MAIL_DIR = mail_ports(int(os.environ.get("JUDGE_E2E_IMAP_PORT", "10243")),
                                            int(os.environ.get("JUDGE_E2E_SMTP_PORT", "10125")),
                                            os.environ.get("JUDGE_E2E_MAIL_DIR", "/tmp/postal-judge-mail-e2e"))
# PYTHON: the SMTP server runs on this interpreter (it has aiosmtpd), as tests/support/mail_services.py does.
MAIL_ENV = {**os.environ, "IMAP_PORT": str(IMAP_PORT), "SMTP_PORT": str(SMTP_PORT), "MAIL_TEST_DIR": MAIL_DIR,
            "PYTHON": sys.executable}
DOMAIN = "judge.test"


def _admin_connect():  # type: ignore[no-untyped-def]
    import psycopg

    return psycopg.connect(PG_ADMIN.replace("+psycopg", ""), autocommit=True, connect_timeout=5)


def create_database() -> str:
    name = f"judge_e2e_{secrets.token_hex(6)}"
    with _admin_connect() as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return name


def drop_database(name: str) -> None:
    with _admin_connect() as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def database_url(name: str) -> str:
    return PG_ADMIN.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="session")
def postgres_available() -> None:
    try:
        with _admin_connect() as conn:
            conn.execute("SELECT 1")
    except Exception as error:
        if os.environ.get("CI"):  # the end-to-end suite must run against real PostgreSQL in CI
            pytest.fail(f"PostgreSQL on 127.0.0.1:5432 is required in CI: {error}")
        pytest.skip(reason=f"PostgreSQL on 127.0.0.1:5432 is not available: {error}")


@pytest.fixture
def pg_url(postgres_available: None, postgres_template: PostgresTemplate) -> Iterator[str]:
    """A fresh, migrated PostgreSQL database with a random name (a copy of the template migrated
    once: tests/conftest.py), dropped afterwards."""
    with postgres_template.copy() as url:
        yield url


@pytest.fixture(scope="session")
def mail_services() -> Iterator[None]:
    result = mail_control("start")
    if result.returncode != 0:
        pytest.fail(f"mail services did not start: {result.stderr[-2000:]}")
    yield
    mail_control("stop")


def mail_control(*args: str) -> subprocess.CompletedProcess[str]:
    script = ROOT / "scripts" / "mail-services.sh"
    return subprocess.run(["bash", str(script), *args], capture_output=True, text=True, timeout=600, env=MAIL_ENV,
                          check=False)


def unique(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(3)}@{DOMAIN}"


# ---------------------------------------------------------------------------------- mail


def send_mail(sender: str, to: str, body: str, *, subject: str = "Diplomacy", message_id: str | None = None,
              raw: bytes | None = None, envelope: str | None = None) -> str:
    """Submit through the real SMTP server (which delivers to the judge's IMAP mailbox)."""
    if raw is None:
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Message-ID"] = message_id or make_msgid(domain="players.test")
        msg.set_content(body)
        raw = msg.as_bytes()
        message_id = msg["Message-ID"]
    for attempt in range(40):
        try:
            with smtplib.SMTP("127.0.0.1", SMTP_PORT, timeout=30) as smtp:
                smtp.sendmail(sender, [envelope or to], raw)
            break
        except ConnectionRefusedError:
            if attempt == 39:
                raise
            time.sleep(0.25)
    return message_id or ""


@dataclass
class Mailbox:
    """A player's IMAP mailbox on the test dovecot."""

    address: str
    seen_uids: set[int] = field(default_factory=set)
    port: int = IMAP_PORT
    # The messages read so far, by UID (a UID names one message for good): each look at the
    # mailbox fetches only the new ones.
    _read: dict[int, EmailMessage] = field(default_factory=dict, repr=False)

    def fetch_all(self) -> list[tuple[int, EmailMessage]]:
        """Every message in the INBOX now, oldest first.

        A connection the IMAP server drops or resets (its login processes are forked per
        connection and a loaded machine can drop one) is this reader's trouble, not the judge's:
        it reads again, up to five times. A server that stays away still fails the test."""
        for attempt in range(5):
            try:
                return self._fetch_once()
            except (OSError, imaplib.IMAP4.abort) as exc:  # ConnectionResetError, refused, timed out
                if attempt == 4:
                    raise
                print(f"{self.address}: IMAP read failed ({exc!r}); reading again")
                time.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    def _fetch_once(self) -> list[tuple[int, EmailMessage]]:
        from imapclient import IMAPClient

        with IMAPClient("127.0.0.1", port=self.port, ssl=False, timeout=30) as client:
            client.login(self.address, "secret")
            client.select_folder("INBOX", readonly=True)
            uids = sorted(client.search(["ALL"]))
            new = [uid for uid in uids if uid not in self._read]
            data = client.fetch(new, ["RFC822"]) if new else {}
        for uid, item in data.items():
            self._read[uid] = message_from_bytes(item[b"RFC822"], policy=policy.default)  # type: ignore[assignment]
        return [(uid, self._read[uid]) for uid in uids if uid in self._read]

    def wait_for(self, predicate: Callable[[EmailMessage], bool], *, timeout: float = 60.0,
                 what: str = "mail") -> EmailMessage:
        """The first not yet seen message matching ``predicate``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for uid, msg in self.fetch_all():
                if uid not in self.seen_uids and predicate(msg):
                    self.seen_uids.add(uid)
                    return msg
            time.sleep(0.3)
        subjects = [str(m["Subject"]) for _, m in self.fetch_all()]
        raise AssertionError(f"{self.address}: no {what} within {timeout} s; inbox has {subjects}")


def text_of(msg: EmailMessage) -> str:
    """The plain text as a mail client shows it (a ``format=flowed`` text joined again)."""
    body = msg.get_body(preferencelist=("plain",))
    return shown_text(body) if body is not None else ""


def subject_has(word: str) -> Callable[[EmailMessage], bool]:
    return lambda msg: word in str(msg["Subject"])


# ---------------------------------------------------------------------------------- server


@dataclass
class ServerProcess:
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self, extra: dict[str, str] | None = None) -> ServerProcess:
        env = {**self.env, **(extra or {})}
        handle = open(self.log, "ab")  # noqa: SIM115 - the child process keeps it
        self.process = subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], cwd=str(ROOT), env=env,
                                        stdout=handle, stderr=subprocess.STDOUT)
        return self

    def wait(self, timeout: float) -> int | None:
        assert self.process is not None
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(database: str, judge_address: str, *, mode: str = "imap", tmp: Path | None = None,
               **overrides: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("JUDGE_")}
    env.update({
        "PYTHONPATH": str(ROOT),
        "JUDGE_DATABASE_URL": database,
        "JUDGE_MAIL_MODE": mode,
        "JUDGE_JUDGE_ADDRESS": judge_address,
        "JUDGE_ADMIN_ADDRESS": judge_address.replace("judge", "keeper", 1),
        "JUDGE_IMAP_HOST": "127.0.0.1",
        "JUDGE_IMAP_PORT": str(IMAP_PORT),
        "JUDGE_IMAP_USER": judge_address,
        "JUDGE_IMAP_PASSWORD": "secret",
        "JUDGE_SMTP_HOST": "127.0.0.1",
        "JUDGE_SMTP_PORT": str(SMTP_PORT),
        "JUDGE_TICK_SECONDS": "0.5",
        "JUDGE_POLL_SECONDS": "0.5",
        "JUDGE_WEB_PORT": str(free_port()),  # every server also serves its dashboard, on a port of its own
    })
    if tmp is not None:
        env["JUDGE_MAILDIR_INBOX"] = str(tmp / "inbox")
        env["JUDGE_MAILDIR_OUTBOX"] = str(tmp / "outbox")
    env.update(overrides)
    return env


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    started: list[ServerProcess] = []

    def make(env: dict[str, str], name: str = "server") -> ServerProcess:
        server = ServerProcess(env=env, log=tmp_path / f"{name}.log")
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


# ---------------------------------------------------------------------------------- direct access

STANDARD_POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def local_judge(url: str, judge_address: str = "judge@judge.test"):  # type: ignore[no-untyped-def]
    """The services in this test process, on the test database (no transports)."""
    from app.db.session import make_engine, make_sessionmaker
    from app.services.kernel.context import Judge
    from app.settings import Settings

    settings = Settings(database_url=url, judge_address=judge_address)
    return Judge(settings=settings, sessions=make_sessionmaker(make_engine(url)))


def create_started_game(judge, name: str, *, domain: str = DOMAIN, **settings: object) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """A started standard game; returns power -> player address (passwords are pw<power>)."""
    from app.services.bootstrap import transaction
    from app.services.games.admin import SeatSpec, create_game_direct

    players = {p: f"{p.lower()}-{name}@{domain}" for p in STANDARD_POWERS}
    seats = [SeatSpec(email=addr, password=f"pw{p.lower()}", power=p) for p, addr in players.items()]
    with transaction(judge) as unit:
        create_game_direct(judge, unit, name, f"gm-{name}@{domain}", "masterpw", seats=seats,
                           settings={"reminder_hours": 0, "nmr": "hold", **settings})
    return players


def make_due(judge, name: str) -> None:  # type: ignore[no-untyped-def]
    """Move the game's deadline, and its open phase's, into the past (as if time had passed).
    The phase's too: an order mail handled before the turn (a server's poller may beat its
    scheduler to the game) would otherwise put the game's deadline back to the phase's, in the
    future (``turns.deadlines.check_early``), and the turn would never come."""
    from datetime import timedelta

    from app.db import queries

    with judge.sessions.begin() as db:
        game = queries.game_by_name(db, name)
        assert game is not None
        game.deadline = judge.now() - timedelta(seconds=1)
        phase = queries.open_phase(db, game.id)
        if phase is not None:
            phase.deadline = game.deadline


def wait_until(predicate, timeout: float = 30.0, what: str = "condition") -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")
