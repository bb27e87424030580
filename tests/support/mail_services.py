"""Python handle on ``scripts/mail-services.sh`` for test fixtures (never used in production).

reason = skip_reason()          # None, or why real mail servers cannot run here
services = start_mail_services()
address = services.new_address("judge")   # a fresh, empty mailbox
with services.imap(address) as client: ...
services.smtp_down(); services.smtp_up(); services.kick(address)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from imapclient import IMAPClient

from tests.support.xdist_groups import mail_ports

__all__ = ["MailServices", "services_running", "skip_reason", "start_mail_services", "stop_mail_services"]

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "mail-services.sh"
DEFAULT_DIR = Path("/tmp/postal-judge-mail")


def _dovecot_installed() -> bool:
    return all(Path(p).exists() for p in ("/usr/sbin/dovecot", "/usr/bin/doveadm", "/usr/lib/dovecot/imap"))


def skip_reason() -> str | None:
    """Why the real mail servers cannot be started on this machine, or None when they can."""
    if os.geteuid() != 0:
        return "the test dovecot needs root (it hands maildirs to the 'mail' user); run the tests as root"
    if not _dovecot_installed() and shutil.which("apt-get") is None:
        return "dovecot-imapd is not installed and apt-get is unavailable on this machine"
    return None


@dataclass(frozen=True)
class MailServices:
    directory: Path
    imap_host: str = "127.0.0.1"
    imap_port: int = 10143
    smtp_host: str = "127.0.0.1"
    smtp_port: int = 10025
    domain: str = "judge.test"
    password: str = "secret"
    env: dict[str, str] = field(default_factory=dict, repr=False)

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(SCRIPT), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    def new_address(self, prefix: str = "user") -> str:
        """An address whose mailbox has never been used (any <name>@judge.test exists)."""
        return f"{prefix}-{uuid.uuid4().hex[:12]}@{self.domain}"

    @contextmanager
    def imap(self, address: str, folder: str = "INBOX") -> Iterator[IMAPClient]:
        """A logged-in IMAP client on ``address``'s ``folder`` (to read what was delivered)."""
        client = IMAPClient(self.imap_host, self.imap_port, ssl=False, timeout=30)
        try:
            client.login(address, self.password)
            if folder != "INBOX" and not client.folder_exists(folder):
                client.create_folder(folder)
            client.select_folder(folder)
            yield client
        finally:
            try:
                client.logout()
            except Exception:
                client.shutdown()

    def smtp_down(self) -> None:
        """Stop the SMTP server: connections are refused until ``smtp_up``."""
        self._check(self.run("smtp-down"))

    def smtp_up(self) -> None:
        self._check(self.run("smtp-up"))

    def smtp_tempfail(self, on: bool) -> None:
        """While on, the SMTP server answers 451 (try again later) to MAIL FROM."""
        flag = self.directory / "smtp-tempfail"
        if on:
            flag.touch()
        else:
            flag.unlink(missing_ok=True)

    def kick(self, address: str) -> None:
        """Drop every IMAP connection of ``address`` from the server side (``doveadm kick``)."""
        self._check(self.run("kick", address))

    @staticmethod
    def _check(result: subprocess.CompletedProcess[str]) -> None:
        if result.returncode != 0:
            raise RuntimeError(f"mail-services.sh failed ({result.returncode}): {result.stderr.strip()}")


def _services(directory: Path | None) -> MailServices:
    """Where and on which ports: MAIL_TEST_DIR, IMAP_PORT and SMTP_PORT as the script reads them,
    this xdist worker's own (``mail_ports``)."""
    imap_port, smtp_port, folder = mail_ports(int(os.environ.get("IMAP_PORT", "10143")),
                                              int(os.environ.get("SMTP_PORT", "10025")),
                                              os.environ.get("MAIL_TEST_DIR", str(DEFAULT_DIR)))
    directory = directory or Path(folder)
    env = dict(
        os.environ,
        MAIL_TEST_DIR=str(directory),
        IMAP_PORT=str(imap_port),
        SMTP_PORT=str(smtp_port),
        PYTHON=sys.executable,
    )
    return MailServices(directory=directory, imap_port=imap_port, smtp_port=smtp_port, env=env)


def services_running(directory: Path | None = None) -> bool:
    return _services(directory).run("status").returncode == 0


def start_mail_services(directory: Path | None = None) -> MailServices:
    """Install (if needed) and start dovecot and the test SMTP server; idempotent."""
    services = _services(directory)
    services._check(services.run("start"))
    return services


def stop_mail_services(directory: Path | None = None) -> None:
    services = _services(directory)
    services._check(services.run("stop"))
