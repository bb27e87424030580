"""A small SMTP server for the tests: every message it accepts lands in the recipient's maildir.

It is the SMTP half of ``scripts/mail-services.sh``: run next to a dovecot whose
``mail_location`` is ``maildir:<root>/%Lu``, any player's inbox can then be read over IMAP.
Like a real MTA's local delivery it prepends ``Return-Path`` and ``Delivered-To``, and it
delivers a sub-address (``judge+TOKEN@judge.test``, RFC 5233) to the mailbox of its base
address (``judge@judge.test``), as Postfix does with ``recipient_delimiter = +``: the judge's
personal reply addresses reach its one mailbox.

    python -m tests.support.smtp_server --port 10025 --maildir-root /tmp/mail [--owner mail]

A file named by ``--tempfail-file`` makes the server answer ``451`` (try again later)
while it exists; stopping the process makes connections be refused.  It offers PIPELINING, as a
production MTA does (``--no-pipelining``: not).
Never used in production.
"""

from __future__ import annotations

import argparse
import logging
import pwd
import signal
import threading
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from app.mail.maildir import deliver, mailbox_for

__all__ = ["MaildirDeliveryHandler", "base_address", "main"]

log = logging.getLogger(__name__)


def base_address(address: str) -> str:
    """``judge+tok3n@judge.test`` -> ``judge@judge.test`` (the mailbox a sub-address is delivered to)."""
    local, at, domain = address.rpartition("@")
    if not at or "+" not in local:
        return address
    base = local.partition("+")[0]
    return f"{base}@{domain}" if base else address


class MaildirDeliveryHandler:
    """aiosmtpd handler: deliver each accepted message into ``root/<recipient>/``."""

    def __init__(
        self,
        root: Path,
        owner: tuple[int, int] | None = None,
        tempfail_file: Path | None = None,
        pipelining: bool = True,
    ) -> None:
        self.root = root
        self.owner = owner
        self.tempfail_file = tempfail_file
        self.pipelining = pipelining

    async def handle_EHLO(
        self, server: SMTP, session: Session, envelope: Envelope, hostname: str, responses: list[str]
    ) -> list[str]:
        """Offers PIPELINING (RFC 2920) as Postfix does: aiosmtpd reads the commands a line at a time
        and answers each in order, so it takes them pipelined; it only does not say so itself."""
        session.host_name = hostname
        if self.pipelining:
            responses.insert(len(responses) - 1, "250-PIPELINING")
        return responses

    def _tempfail(self) -> bool:
        return self.tempfail_file is not None and self.tempfail_file.exists()

    async def handle_MAIL(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, mail_options: list[str]
    ) -> str:
        if self._tempfail():
            return "451 4.3.2 System not accepting messages, try again later"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        try:
            mailbox_for(self.root, base_address(address))
        except ValueError:
            return "550 5.1.1 Bad recipient address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        if isinstance(content, str):  # pragma: no cover - decode_data is off
            content = content.encode("utf-8", "surrogateescape")
        sender = (envelope.mail_from or "").replace("\r", "").replace("\n", "")
        for rcpt in envelope.rcpt_tos:
            trace = f"Return-Path: <{sender}>\r\nDelivered-To: {rcpt.lower()}\r\n".encode()
            path = deliver(mailbox_for(self.root, base_address(rcpt)), trace + content, self.owner)
            log.info("delivered %d bytes from %s to %s (%s)", len(content), sender, rcpt, path.name)
        return "250 2.0.0 OK delivered"


def _owner(user: str | None) -> tuple[int, int] | None:
    if not user:
        return None
    entry = pwd.getpwnam(user)
    return entry.pw_uid, entry.pw_gid


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=10025)
    parser.add_argument("--maildir-root", type=Path, required=True)
    parser.add_argument("--server-name", default="mail.judge.test", help="name in the SMTP greeting")
    parser.add_argument("--owner", help="system user that owns the delivered files")
    parser.add_argument("--tempfail-file", type=Path, help="answer 451 while this file exists")
    parser.add_argument("--no-pipelining", action="store_true", help="do not offer PIPELINING (RFC 2920)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")

    handler = MaildirDeliveryHandler(args.maildir_root, _owner(args.owner), args.tempfail_file,
                                     pipelining=not args.no_pipelining)
    controller = Controller(
        handler,
        hostname=args.host,
        port=args.port,
        server_hostname=args.server_name,  # given, so that no DNS look-up is made for it
        data_size_limit=64 * 1024 * 1024,
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    controller.start()
    log.info("test SMTP server on %s:%d delivering into %s", args.host, args.port, args.maildir_root)
    try:
        stop.wait()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
