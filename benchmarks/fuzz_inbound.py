"""Fuzz the inbound pipeline: generated mails (random MIME structure, charsets, headers, command
mixes, damaged bytes, and the hostile headers and over-long lines of ``benchmarks/fuzz_headers.py``:
encoded words in every charset Python knows, UTF-7 lone surrogates, over-long Message-IDs,
In-Reply-To, References and addresses, NUL and control characters in every header, lines past
every column) through the judge, then count what went wrong.

    python benchmarks/fuzz_inbound.py [--mails N | --long] [--batch 10000] [--seed 1] [--fast-hash]
        [--database-url URL | --postgres ADMIN_URL] [--imap HOST:PORT [--imap-domain D] [--imap-password P]]

Each batch runs on a fresh database (throwaway SQLite; ``--postgres``: a throwaway PostgreSQL
database made with that admin URL) with a started game ``fuzz`` of seven players.  Without
``--imap`` each mail goes straight into ``handle_raw`` and the judge's clock moves one minute per
mail; with ``--imap`` (the production shape) each batch is appended to a fresh mailbox on that IMAP
server and read by the judge's own poller (``poll_once`` over ``ImapInbox``), a minute per round.
``--long`` is the long run: 100,000 mails.  The short run (2,000 mails, IMAP + PostgreSQL) is in
the test suite (``tests/mail/test_fuzz_production.py``).  Printed per batch and in total:

- crashes: a mail the judge could not handle at all, or one tried more than once, ``failed`` or
  ``quarantined`` (an exception inside the pipeline);
- unanswered human mails: a stored mail with a sender, not automatic, not from the judge itself,
  that got no answer -- except those held back by the answer budget (no command, over three an
  hour from one sender; a stranger past its five answers an hour, or all strangers past their
  hourly cap: held), and those from an address no answer could reach (a NUL or a non-ASCII byte
  in it: refused at the door), which are counted on their own lines;
- duplicate answers: a mail answered more than once;
- stalls (IMAP): mails still in the inbox when ten rounds in a row took none out.

Exit status 1 when any of the four is not 0.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.header import Header
from email.message import EmailMessage, Message
from email.mime.base import MIMEBase
from email.mime.message import MIMEMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, select

from app.db import queries
from app.db.migrate import upgrade
from app.db.models import InboundMessage, OutboundMessage
from app.db.session import make_engine, make_sessionmaker
from app.mail.inbox.imap import ImapInbox
from app.mail.reading.messages import parse_message
from app.mail.runners.inbound import handle_raw
from app.mail.runners.poller import poll_once
from app.services.bootstrap import transaction
from app.services.games.admin import SeatSpec, create_game_direct
from app.services.kernel.context import Judge
from app.settings import Settings
from benchmarks.fuzz_headers import POISON_WORDS, encoded_word, hostile_headers, long_lines
from benchmarks.fuzz_imap import ImapTarget, throwaway_database

__all__ = ["FuzzFigures", "run_batch", "run_fuzz"]

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
UNITS = {"AUSTRIA": ["A Vie", "A Bud", "F Tri"], "ENGLAND": ["F Lon", "F Edi", "A Lvp"],
         "FRANCE": ["A Par", "A Mar", "F Bre"], "GERMANY": ["F Kie", "A Mun", "A Ber"],
         "ITALY": ["A Ven", "A Rom", "F Nap"], "RUSSIA": ["A Mos", "A War", "F Sev", "F Stp/sc"],
         "TURKEY": ["A Con", "A Smy", "F Ank"]}
PLACES = ["Bur", "Pic", "Gas", "Spa", "Por", "Mao", "Eng", "Nth", "Bel", "Hol", "Ruh", "Tyr", "Boh", "Gal",
          "Ukr", "Bla", "Arm", "Bul", "Ser", "Alb", "Ion", "Tun", "Xyz", "Stp/nc"]
CHARSETS = ["utf-8", "iso-8859-1", "windows-1252", "koi8-r", "shift_jis", "iso-2022-jp", "utf-16", "us-ascii",
            "x-unknown-charset", "idna", "gb2312", "iso-8859-15"]
WORDS = ["Bonjour", "Grüße", "Привет", "こんにちは", "ordres", "ÉTÉ", "😀", "naïve", "straße", "\u202e", "\u00a0"]
MASTER_PASSWORD = "fuzzmaster"


@dataclass
class FuzzFigures:
    mails: int = 0
    crashes: int = 0
    human: int = 0
    answered: int = 0
    unanswered: int = 0
    budget_held: int = 0
    unwritable: int = 0
    duplicate_answers: int = 0
    stalls: int = 0  # mails still in the inbox when the run ended (IMAP)
    refused: int = 0  # mails the IMAP server would not take (never reached the judge)
    statuses: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    examples: list[str] = field(default_factory=list)

    def add(self, other: FuzzFigures) -> None:
        for name in ("mails", "crashes", "human", "answered", "unanswered", "budget_held", "unwritable", "duplicate_answers",
                     "stalls", "refused", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.statuses.update(other.statuses)
        self.examples.extend(other.examples[: max(0, 10 - len(self.examples))])

    @property
    def ok(self) -> bool:
        return self.crashes == 0 and self.unanswered == 0 and self.duplicate_answers == 0 and self.stalls == 0

    def lines(self) -> list[str]:
        return [f"mails: {self.mails} in {self.seconds:.1f} s ({self.mails / max(self.seconds, 1e-9):.1f} mails/s)",
                f"crashes: {self.crashes}",
                f"human mails: {self.human}; answered: {self.answered}; unanswered: {self.unanswered}; "
                f"held back by the answer budgets (no command, >3/h; strangers, >5/h): {self.budget_held}; "
                f"a sender address no answer could reach (refused at the door): {self.unwritable}",
                f"duplicate answers: {self.duplicate_answers}",
                f"stalled (left in the inbox): {self.stalls}; refused by the IMAP server: {self.refused}",
                f"outcomes: {dict(sorted(self.statuses.items()))}"]


class _Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class _Generator:
    """One random mail after another (deterministic for a seed)."""

    def __init__(self, rng: random.Random, tokens: dict[str, str], judge_address: str) -> None:
        self.rng = rng
        self.tokens = tokens
        self.judge_address = judge_address
        self.counter = 0
        self.recent_ids: list[str] = []

    # -- bodies -------------------------------------------------------------------------
    def _order(self, power: str) -> str:
        r = self.rng
        unit = r.choice(UNITS[power] + UNITS[r.choice(POWERS)])
        kind = r.random()
        if kind < 0.4:
            return f"{unit}-{r.choice(PLACES)}"
        if kind < 0.6:
            return f"{unit} H"
        if kind < 0.8:
            return f"{r.choice(UNITS[power])} S {unit}-{r.choice(PLACES)}"
        return f"{unit} C {r.choice(UNITS[power])}-{r.choice(PLACES)}"

    def _signon(self, power: str) -> str:
        r = self.rng
        password = f"pw{power.lower()}" if r.random() < 0.8 else r.choice(["wrong", "pw", "", "pwfrance x"])
        style = r.random()
        if style < 0.6:
            return f"SIGNON {power[0]}fuzz {password}"
        if style < 0.8:
            return f"signon {power.lower()}@fuzz {password}"
        return f"SIGNON {power[0]}{r.choice(['fuzz', 'nogame', 'FUZZ', ''])} {password}"

    def _command(self, power: str) -> list[str]:
        r = self.rng
        pick = r.random()
        if pick < 0.35:
            return [self._order(power) for _ in range(r.randint(1, 4))]
        choices: list[list[str]] = [
            ["LIST"], ["LIST fuzz"], ["HELP"], ["HISTORY fuzz"], ["SUMMARY fuzz"], ["STATUS"], ["CLEAR"],
            ["SET WAIT"], ["SET NOWAIT"], ["SET DRAW"], ["SET NODRAW"], ["PHASE F1901M"], ["PHASE bogus"],
            ["SET ABSENCE 2026-03-10 TO 2026-03-12"], ["SET ABSENCE +48h"], ["SET CONCEDE France"],
            [f"PRESS TO {r.choice(POWERS + ['Engalnd', 'ALL BUT France'])}", "Hello there", self._order(power),
             "ENDPRESS"],
            ["BROADCAST", "Peace for all", "CLEAR", "ENDPRESS"], ["PRESS TO England GREY", "psst", "ENDPRESS"],
            ["SET PASSWORD short"], ["SET ADDRESS josé@example.com"], ["SET ADDRESS a@b"], ["NEW TOKEN"],
            ["JOIN fuzz secretpw"], ["OBSERVE fuzz watcherpw"], ["CREATE " + r.choice(["x", "fuzz", "g1"]) + " pw"],
            ["TAKEOVER france@fuzz newpassword"], ["SIGNON master@fuzz " + r.choice([MASTER_PASSWORD, "nope"])],
            ["BECOME France"], ["SET DEADLINE +1h"], ["GRANT ABSENCE France 3"], ["REPLACE Spain a@example.com"],
            ["SET RULE nonsense on"], ["SIGNOFF", "after signoff"], ["MAP fuzz"], ["ENDPRESS"], ["SET"],
        ]
        return r.choice(choices)

    def _noise(self) -> list[str]:
        r = self.rng
        return r.choice([
            ["Thanks!"], ["I am out of the office until Monday."], [r.choice(WORDS) * r.randint(1, 5)],
            ["> quoted line", "> another quoted line"], ["-- ", "John", "Sent from my phone"], [""],
            ["x" * r.randint(200, 5000)], ["\t\t"], ["A" * 10 + "\x00" + "B"], ["// comment"],
            ["On Mon, the judge wrote:", "> Orders for France", ">> deeper"],
        ])

    def body(self, power: str) -> str:
        r = self.rng
        lines: list[str] = []
        if r.random() < 0.55:
            lines.append(self._signon(power))
        for _ in range(r.randint(0, 6)):
            lines.extend(self._command(power) if r.random() < 0.7 else self._noise())
        if r.random() < 0.05:
            lines.extend(["> " + "q" * 70] * r.randint(100, 1200))  # a long quoted tail
        if r.random() < 0.02:
            lines.extend([self._order(power)] * r.randint(1000, 2100))
        if r.random() < 0.15:
            lines.extend(long_lines(r, power))
        r.shuffle(lines) if r.random() < 0.1 else None
        return "\n".join(lines)

    # -- headers and structure ---------------------------------------------------------------
    def _sender(self) -> tuple[str, str]:
        """(From header value, the power whose commands the body uses)."""
        r = self.rng
        power = r.choice(POWERS)
        pick = r.random()
        if pick < 0.45:
            return f"{power.title()} Player <{power.lower()}@example.com>", power
        if pick < 0.85:
            return f"u{r.randint(0, 5000)}@{r.choice(['example.org', 'mail.test', 'ex.co.uk'])}", power
        return r.choice([
            "", "not an address", "José <josé@example.com>", "=?utf-8?b?w4lsaXNl?= <elise@example.org>",
            self.judge_address, "judge+abc@judge.test", "MAILER-DAEMON@example.com", "<>", "a@b@c",
            "\"quoted, name\" <q@example.com>", "x" * 400 + "@example.com",
        ]), power

    def _to(self, power: str) -> str:
        r = self.rng
        pick = r.random()
        if pick < 0.7:
            return self.judge_address
        if pick < 0.9:
            return self.tokens[power]
        return r.choice(["judge+nosuchtoken@judge.test", "other@example.com", "", "judge+@judge.test"])

    def _text_part(self, text: str) -> Message:
        r = self.rng
        charset = r.choice(CHARSETS)
        try:
            part = MIMEText(text, "plain", charset if charset not in ("x-unknown-charset", "idna") else "utf-8")
        except (LookupError, UnicodeError):
            part = MIMEText(text, "plain", "utf-8")
        if charset in ("x-unknown-charset", "idna"):
            part.set_param("charset", charset)
        return part

    def _html_part(self, text: str) -> Message:
        html = "<html><body>" + "".join(f"<p>{line}</p>" for line in text.split("\n")) + "</body></html>"
        return MIMEText(html, "html", "utf-8")

    def _structure(self, text: str) -> Message:
        r = self.rng
        pick = r.random()
        if pick < 0.5:
            return self._text_part(text)
        if pick < 0.65:
            alt = MIMEMultipart("alternative")
            alt.attach(self._text_part(text))
            alt.attach(self._html_part(text))
            return alt
        if pick < 0.72:
            return self._html_part(text)
        if pick < 0.85:
            mixed = MIMEMultipart("mixed")
            mixed.attach(self._text_part(text))
            attachment = MIMEBase("application", r.choice(["octet-stream", "pdf", "x-zip"]))
            attachment.set_payload(bytes(r.getrandbits(8) for _ in range(r.randint(0, 300))))
            attachment.add_header("Content-Disposition", "attachment", filename=r.choice(["a.bin", "ü.pdf", ""]))
            mixed.attach(attachment)
            return mixed
        if pick < 0.92:
            mixed = MIMEMultipart("mixed")
            inner = EmailMessage()
            inner["Subject"] = "forwarded"
            inner.set_content("SIGNON Ffuzz pwfrance\nA Par-Bur\n")
            mixed.attach(self._text_part(text))
            mixed.attach(MIMEMessage(inner))
            return mixed
        only = MIMEBase("image", "png")
        only.set_payload(b"\x89PNG" + bytes(r.getrandbits(8) for _ in range(50)))
        return only

    def mail(self) -> bytes:
        r = self.rng
        self.counter += 1
        sender, power = self._sender()
        msg = self._structure(self.body(power))
        if sender or r.random() < 0.5:
            msg["From"] = sender
        msg["To"] = self._to(power)
        subject = r.choice(["orders", "Re: Diplomacy orders fuzz S1901M", "", "Ordres — été " + r.choice(WORDS),
                            "Re: Re: Re: Re: judge", "x" * 600, encoded_word(r), r.choice(POISON_WORDS)])
        if subject.startswith("=?"):
            msg["Subject"] = subject  # an encoded word as written, whatever it decodes to
        elif not subject.isascii() and r.random() < 0.5:
            msg["Subject"] = Header(subject, "utf-8").encode()  # RFC 2047 encoded words
        else:
            msg["Subject"] = subject  # raw 8-bit when not ASCII
        if r.random() < 0.97:
            if self.recent_ids and r.random() < 0.02:
                message_id = r.choice(self.recent_ids)  # a repeated Message-ID: answered once
            else:
                message_id = f"<fuzz{self.counter}.{r.getrandbits(32):x}@fuzz.test>"
                self.recent_ids = (self.recent_ids + [message_id])[-50:]
            msg["Message-ID"] = message_id
        if r.random() < 0.1:
            msg["In-Reply-To"] = f"<{r.getrandbits(64):x}@judge.test>"
        if r.random() < 0.05:
            msg[r.choice(["Auto-Submitted", "Precedence", "X-Autoreply", "List-Id"])] = r.choice(
                ["auto-replied", "bulk", "yes", "<list.example.com>"])
        if r.random() < 0.1:
            msg["Authentication-Results"] = r.choice([
                "mx.judge.test; dmarc=fail header.from=example.com", "mx.judge.test; spf=pass",
                "other; dmarc=fail", "garbage ;;; =", "mx.judge.test; spf=fail smtp.mailfrom=x@example.com"])
        try:
            raw = msg.as_bytes()
        except Exception:
            raw = msg.as_string().encode("utf-8", "replace")
        if r.random() < 0.25:  # hostile header lines in front: the first occurrence is the one read
            raw = hostile_headers(r) + raw
        damage = r.random()
        if damage < 0.05:  # flip some bytes
            data = bytearray(raw)
            for _ in range(r.randint(1, 20)):
                if data:
                    data[r.randrange(len(data))] = r.getrandbits(8)
            raw = bytes(data)
        elif damage < 0.07:  # cut short
            raw = raw[: r.randint(0, len(raw))]
        elif damage < 0.08:  # header line without a colon, bare CRs, NULs
            raw = b"Garbage line\r\n\x00\r" + raw
        return raw


def _own(address: str, judge_address: str) -> bool:
    local, _, domain = address.lower().rpartition("@")
    own_local, _, own_domain = judge_address.lower().rpartition("@")
    return domain == own_domain and (local == own_local or local.startswith(own_local + "+"))


def new_judge(url: str, clock: _Clock, judge_address: str = "judge@judge.test") -> Judge:
    """The services on a migrated database ``url``, with the game ``fuzz`` of seven players started."""
    upgrade(url)
    judge = Judge(settings=Settings(database_url=url, judge_address=judge_address, outage_minutes=10**7,
                                    authserv_id="mx.judge.test"),
                  sessions=make_sessionmaker(make_engine(url)), clock=clock)
    seats = [SeatSpec(f"{p.lower()}@example.com", f"pw{p.lower()}", p) for p in POWERS]
    with transaction(judge) as unit:
        create_game_direct(judge, unit, "fuzz", "gm@example.com", MASTER_PASSWORD, seats=seats,
                           settings={"reminder_hours": 0, "early": False})
    return judge


def generator_for(judge: Judge, rng: random.Random) -> _Generator:
    with judge.sessions.begin() as db:
        game = queries.game_by_name(db, "fuzz")
        assert game is not None
        tokens = {s.power or "": judge.settings.token_address(s.reply_token) for s in game.players}
    return _Generator(rng, tokens, judge.settings.judge_address)


def account(judge: Judge, figures: FuzzFigures) -> None:
    """What the database says of every mail the judge stored: crashes (a mail tried more than once,
    failed or quarantined), human mails answered, held back by the answer budget or unanswered, and
    mails answered more than once."""
    with judge.sessions.begin() as db:
        replies = Counter(dict(db.execute(
            select(OutboundMessage.in_reply_to, func.count()).where(OutboundMessage.kind == "reply")
            .group_by(OutboundMessage.in_reply_to)).all()))
        rows = db.execute(select(InboundMessage.id, InboundMessage.status, InboundMessage.attempts,
                                 InboundMessage.error, InboundMessage.raw)).all()
    for row_id, status, attempts, error, raw in rows:
        figures.statuses[status] += 1
        if attempts > 1 or status in ("failed", "quarantined"):
            figures.crashes += 1
            figures.examples.append(f"stored mail {row_id}: {status} after {attempts} tries: {error}"[:300])
        mail = parse_message(raw)
        if not mail.sender or mail.automatic or _own(mail.sender, judge.settings.judge_address):
            continue
        figures.human += 1
        count = replies.get(mail.message_id, 0)
        if count:
            figures.answered += 1
        elif status == "held" or (status == "ignored" and (error or "").startswith(
                ("no command: answer budget", "stranger: answer budget", "sender failed SPF/DMARC"))):  # issue 29.4
            figures.budget_held += 1
        elif status == "ignored" and (error or "").startswith("a sender address the judge cannot write to"):
            figures.unwritable += 1  # refused at the door, as no answer could reach it (issue 29.10)
        else:
            figures.unanswered += 1
            figures.examples.append(f"unanswered: stored mail {row_id} {mail.message_id[:80]} ({status})")
    figures.duplicate_answers = sum(1 for count in replies.values() if count > 1)


def quiet_logs() -> None:
    logging.getLogger("app").setLevel(logging.CRITICAL)  # failures are counted from the database, not printed


def run_batch(mails: int, seed: int, database_url: str | None = None) -> FuzzFigures:
    """Fuzz one fresh database with ``mails`` generated mails, straight into ``handle_raw``."""
    quiet_logs()
    figures = FuzzFigures(mails=mails)
    rng = random.Random(seed)
    # A throwaway database: in memory-backed /dev/shm when there is one (no fsync per commit).
    shm = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=shm) as tmp:
        clock = _Clock()
        judge = new_judge(database_url or f"sqlite:///{tmp}/fuzz.sqlite3", clock)
        generator = generator_for(judge, rng)
        started = time.perf_counter()
        for number in range(mails):
            raw = generator.mail()
            try:
                handle_raw(judge, raw)
            except Exception as error:
                figures.crashes += 1
                figures.examples.append(f"mail {number}: raised {type(error).__name__}: {error}"[:300])
            clock.now += timedelta(minutes=1)
        figures.seconds = time.perf_counter() - started
        account(judge, figures)
        judge.sessions.kw["bind"].dispose()
    return figures


class _Unhandled(logging.Handler):
    """Counts the mails the poller could not handle at all (left in the inbox for the next round)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("could not handle message"):
            self.messages.append(f"{record.getMessage()}: {record.exc_info[1]!r}"[:300] if record.exc_info
                                 else record.getMessage())


def run_imap_batch(mails: int, seed: int, database_url: str | None, target: ImapTarget,
                   chunk: int = 100) -> FuzzFigures:
    """``mails`` generated mails delivered to a fresh mailbox of a real IMAP server, ``chunk`` at a time,
    read by the judge's own ``poll_once`` over its ``ImapInbox`` (batches of 50), as `judge serve` does;
    then polled until the inbox is empty, or ten rounds without progress: what is left is stalled."""
    quiet_logs()
    unhandled = _Unhandled()
    logging.getLogger("app.mail.runners.poller").addHandler(unhandled)
    figures = FuzzFigures(mails=mails)
    rng = random.Random(seed)
    mailbox = target.new_mailbox()
    shm = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=shm) as tmp:
        clock = _Clock()
        judge = new_judge(database_url or f"sqlite:///{tmp}/fuzz.sqlite3", clock, judge_address=mailbox.address)
        generator = generator_for(judge, rng)
        inbox = ImapInbox(target.host, target.port, mailbox.address, target.password)
        started = time.perf_counter()
        try:
            for first in range(0, mails, chunk):
                for _ in range(min(chunk, mails - first)):
                    figures.refused += not mailbox.append(generator.mail())
                for _ in range(chunk // inbox.batch_size):
                    poll_once(judge, inbox)
                    clock.now += timedelta(minutes=1)
            idle = 0
            while (waiting := mailbox.waiting()) and idle < 10:
                poll_once(judge, inbox)
                clock.now += timedelta(minutes=1)
                idle = idle + 1 if mailbox.waiting() >= waiting else 0
            figures.stalls = mailbox.waiting()
        finally:
            inbox.close()
            mailbox.close()
            logging.getLogger("app.mail.runners.poller").removeHandler(unhandled)
        figures.seconds = time.perf_counter() - started
        figures.crashes += len(unhandled.messages)
        figures.examples.extend(unhandled.messages[:5])
        account(judge, figures)
        judge.sessions.kw["bind"].dispose()
    return figures


def run_fuzz(mails: int, batch: int = 10000, seed: int = 1, database_url: str | None = None,
             report: bool = False, imap: ImapTarget | None = None, postgres: str | None = None) -> FuzzFigures:
    """``mails`` in batches, each on a fresh database: throwaway SQLite, or (``postgres``, an admin
    URL) a throwaway PostgreSQL database; through ``handle_raw``, or (``imap``) through real IMAP."""
    total = FuzzFigures()
    done = 0
    number = 0
    while done < mails:
        size = min(batch, mails - done)
        batch_seed = seed * 1_000_003 + number
        with throwaway_database(postgres) as url:
            url = url or database_url
            figures = run_imap_batch(size, batch_seed, url, imap) if imap else run_batch(size, batch_seed, url)
        total.add(figures)
        done += size
        number += 1
        if report:
            print(f"batch {number} ({done}/{mails}): " + "; ".join(figures.lines()), flush=True)
    return total


LONG_RUN = 100_000


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--long", action="store_true", help=f"the long run: {LONG_RUN:,} mails (overrides --mails)")
    parser.add_argument("--batch", type=int, default=10000, help="mails per fresh database")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="an empty database (default: throwaway SQLite)")
    parser.add_argument("--postgres", default=None, metavar="ADMIN_URL",
                        help="a throwaway PostgreSQL database per batch, made with this admin URL "
                             "(postgresql+psycopg://postgres@127.0.0.1:5432/postgres)")
    parser.add_argument("--imap", default=None, metavar="HOST:PORT",
                        help="through a real IMAP server: each batch is appended to a fresh mailbox "
                             "(fuzz-<random>@<--imap-domain>, password --imap-password) and polled as `judge serve` does")
    parser.add_argument("--imap-domain", default="judge.test")
    parser.add_argument("--imap-password", default="secret")
    parser.add_argument("--fast-hash", action="store_true",
                        help="argon2 at its minimal cost (same code path, far less CPU per sign-on)")
    args = parser.parse_args()
    if args.fast_hash:
        fast_hash()
    imap = None
    if args.imap:
        host, _, port = args.imap.rpartition(":")
        imap = ImapTarget(host or "127.0.0.1", int(port), args.imap_domain, args.imap_password)
    total = run_fuzz(LONG_RUN if args.long else args.mails, args.batch, args.seed, args.database_url, report=True,
                     imap=imap, postgres=args.postgres)
    print("TOTAL")
    for line in total.lines():
        print("  " + line)
    for example in total.examples:
        print("  example: " + example)
    return 0 if total.ok else 1


def fast_hash() -> None:
    from argon2 import PasswordHasher

    from app.services.kernel import security

    security._HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


if __name__ == "__main__":
    sys.exit(main())
