"""The production shape for the inbound fuzzer: a throwaway PostgreSQL database per batch and a
fresh mailbox on a real IMAP server (the test dovecot takes any ``<name>@judge.test``)."""

from __future__ import annotations

import imaplib
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from imapclient import IMAPClient

__all__ = ["ImapTarget", "Mailbox", "throwaway_database"]


@contextmanager
def throwaway_database(admin_url: str | None) -> Iterator[str | None]:
    """A new empty PostgreSQL database (its URL), dropped afterwards; None without ``admin_url``."""
    if not admin_url:
        yield None
        return
    import psycopg

    name = f"judge_fuzz_{secrets.token_hex(6)}"
    plain = admin_url.replace("+psycopg", "")
    with psycopg.connect(plain, autocommit=True, connect_timeout=10) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
        # A throwaway database needs no durability: commits do not wait for the disk (the judge's
        # statements and transactions are the same).
        conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(plain, autocommit=True, connect_timeout=10) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


@dataclass(frozen=True)
class ImapTarget:
    host: str
    port: int
    domain: str = "judge.test"
    password: str = "secret"

    def new_mailbox(self) -> Mailbox:
        return Mailbox(self, f"fuzz-{secrets.token_hex(6)}@{self.domain}")


class Mailbox:
    """The fuzzer's side of the judge's mailbox: it delivers (APPEND) and counts what is waiting."""

    def __init__(self, target: ImapTarget, address: str) -> None:
        self.target, self.address = target, address
        self.client = IMAPClient(target.host, target.port, ssl=False, timeout=60)
        self.client.login(address, target.password)
        self.client.select_folder("INBOX")

    def append(self, raw: bytes) -> bool:
        """Deliver ``raw``; False when the server refuses it (it never reaches the judge)."""
        try:
            self.client.append("INBOX", raw)
        except imaplib.IMAP4.abort:
            raise
        except imaplib.IMAP4.error:
            return False
        return True

    def waiting(self) -> int:
        """Messages still in the judge's INBOX (neither done nor quarantined)."""
        self.client.noop()
        return len(self.client.search(["NOT", "DELETED"]))

    def close(self) -> None:
        try:
            self.client.logout()
        except Exception:
            self.client.shutdown()
