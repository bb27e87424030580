"""Mail at the edge: raw bytes in -> ``IncomingMail``; ``OutgoingMail`` -> RFC 5322 bytes out.

``parse_message`` never raises: whatever arrives, it returns what could be read and
lists what was wrong in ``problems``.  ``render_message`` refuses header values that
could inject headers (``ValueError``) and always marks our mail ``Auto-Submitted``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes
from email.headerregistry import HeaderRegistry, UnstructuredHeader
from email.message import Message
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import format_datetime, getaddresses, make_msgid
from functools import lru_cache

from app.mail.reading import OwnMarks, Reading, read_body
from app.mail.reading.automatic import automatic_reasons
from app.mail.reading.headers import addresses, bare_address, clean, decoded, first_address, forbidden_header_char
from app.mail.reading.mime_body import POLICY as _POLICY
from app.mail.reading.mime_body import Attachment, body
from app.mail.reading.outgoing import AUTO_REPLIED, unsubscribe_header
from app.mail.reading.outgoing import references as thread_references
from app.mail.reading.parts import arrived_cut_defect, walk

__all__ = [
    "MAX_PARSED_BYTES",
    "MESSAGE_ID_LIMIT",
    "TEXT_LIMIT",
    "Attachment",
    "IncomingMail",
    "OutgoingMail",
    "derived_message_id",
    "message_id_of",
    "parse_message",
    "render_message",
]

TEXT_LIMIT = 64 * 1024
"""Characters of body text kept for the command reader."""
MESSAGE_ID_LIMIT = 400
"""Characters of a Message-ID (or In-Reply-To) kept: the columns that hold them."""
MAX_PARSED_BYTES = 16 * 1024 * 1024
"""Bytes of a message that are parsed at all; the rest is ignored (and reported)."""
_RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")
_MSG_ID = re.compile(r"<[^<>\s]+>")
_CUT_MARK = "were read"


@dataclass(frozen=True)
class IncomingMail:
    """What the judge reads from one received message."""

    message_id: str
    sender: str
    sender_name: str
    to: tuple[str, ...]
    subject: str
    text: str
    in_reply_to: str | None
    automatic: bool
    problems: tuple[str, ...]
    auth_results: tuple[str, ...] = ()  # the Authentication-Results headers, top first
    cuts: tuple[str, ...] = ()  # where the text was cut (also in ``problems``): the reply says so
    stopped: str = ""  # why reading stopped before the end of the text (a quoted message began), or ""
    stopped_line: int = 0  # the line of the text as shown where it stopped (1-based)
    unread_lines: int = 0  # the non-blank lines from there on, not read
    unread_parts: tuple[str, ...] = ()  # parts that could have held text and were not read (attachments)
    references: tuple[str, ...] = ()  # the Message-IDs of its References header, in order


@dataclass(frozen=True)
class OutgoingMail:
    """One mail the judge sends; ``render_message`` turns it into bytes."""

    to: str
    subject: str
    text: str
    html: str | None = None
    attachments: tuple[Attachment, ...] = ()
    message_id: str = ""
    in_reply_to: str | None = None
    reply_to: str | None = None
    sender: str = ""
    references: tuple[str, ...] = ()  # the References of the mail answered (``in_reply_to``), before it
    auto_submitted: str = AUTO_REPLIED  # RFC 3834: ``auto-generated`` for a mail that answers none
    list_id: str | None = None  # RFC 2919: the game's (``outgoing.list_id``)
    unsubscribe: str | None = None  # RFC 2369: the one-time address that stops a seat's mail


# --------------------------------------------------------------------------- parsing


def derived_message_id(raw: bytes) -> str:
    """The stable Message-ID given to a message that has none."""
    return f"<sha256.{hashlib.sha256(raw).hexdigest()}@postal-judge.invalid>"


def parse_message(raw: bytes, own: OwnMarks | None = None) -> IncomingMail:
    """Read ``raw``; never raises.  Problems found are listed, not thrown.  ``own``: the judge's own
    marks (its address), so that a quoted header of its own ends the text read (``app.mail.reading``)."""
    try:
        data = _as_bytes(raw)
    except Exception:
        data = b""
    try:
        return _parse(data, own=own)
    except Exception as exc:
        problem = f"unreadable message body ({type(exc).__name__})"
    try:
        return _parse(data, headers_only=True, problem=problem)
    except Exception as exc:
        return IncomingMail(
            message_id=derived_message_id(data),
            sender="",
            sender_name="",
            to=(),
            subject="",
            text="",
            in_reply_to=None,
            automatic=False,
            problems=(f"unreadable message ({type(exc).__name__})",),
        )


def _as_bytes(raw: object) -> bytes:
    if isinstance(raw, bytes):
        return raw
    if isinstance(raw, str):
        return raw.encode("utf-8", "surrogateescape")
    return bytes(raw)  # type: ignore[call-overload,no-any-return]


def _parse(raw: bytes, *, headers_only: bool = False, problem: str = "", own: OwnMarks | None = None) -> IncomingMail:
    problems: list[str] = [problem] if problem else []
    if not raw.strip():
        problems.append("empty message")
    if len(raw) > MAX_PARSED_BYTES:
        problems.append(f"message of {len(raw)} bytes: only its first {MAX_PARSED_BYTES} bytes were read")
    if headers_only:
        msg = BytesHeaderParser(policy=compat32).parsebytes(raw[:MAX_PARSED_BYTES])
        reading = Reading()
    else:
        msg = message_from_bytes(raw[:MAX_PARSED_BYTES], policy=compat32)
        reading = read_body(msg, problems, own)  # before the defects: decoding adds some
        reading.text = _finish(reading.text, problems, _cut_of(reading, msg, raw))
        problems[:0] = _defects(msg)
    text = reading.text

    sender_name, sender = first_address(msg, "From", problems)
    if not sender:
        problems.append("no sender address (From)")
    message_id = _message_id(msg, raw, problems)
    reply = clean(str(msg.get("In-Reply-To", "")), 2000)
    match = _MSG_ID.search(reply)
    in_reply_to = (match.group(0) if match else reply)[:MESSAGE_ID_LIMIT] or None
    reasons = automatic_reasons(msg, sender)
    # every one, top first (however many: a trusted ``fail`` below twenty others still counts)
    auth_results = tuple(clean(str(value), 2000) for value in msg.get_all("Authentication-Results") or ())

    return IncomingMail(
        message_id=message_id,
        sender=sender,
        sender_name=sender_name,
        to=addresses(msg, _RECIPIENT_HEADERS),
        subject=decoded(msg, "Subject", problems),
        text=text,
        in_reply_to=in_reply_to,
        automatic=bool(reasons),
        problems=tuple(dict.fromkeys(problems)),
        auth_results=auth_results,
        cuts=tuple(p for p in dict.fromkeys(problems) if _CUT_MARK in p),
        stopped=reading.stopped,
        stopped_line=reading.stopped_line,
        unread_lines=reading.unread_lines,
        unread_parts=tuple(dict.fromkeys(reading.unread_parts)),
        references=thread_references(clean(str(msg.get("References", "")), 20000), None),
    )


def _message_id(msg: Message, raw: bytes, problems: list[str]) -> str:
    """The Message-ID as sent, or the one derived from the bytes when there is none or it is longer
    than ``MESSAGE_ID_LIMIT`` (it could not be kept, nor answered with an In-Reply-To, whole)."""
    message_id = clean(str(msg.get("Message-ID", "")), 2000)
    if len(message_id) > MESSAGE_ID_LIMIT:
        problems.append("Message-ID too long")
        message_id = ""
    return message_id or derived_message_id(raw)


def message_id_of(raw: bytes) -> str:
    """The Message-ID ``parse_message`` gives ``raw``, read from its header lines alone."""
    data = _as_bytes(raw)
    try:
        msg = BytesHeaderParser(policy=compat32).parsebytes(data[:MAX_PARSED_BYTES])
        return _message_id(msg, data, [])
    except Exception:
        return derived_message_id(data)


def _defects(msg: Message) -> list[str]:
    names: dict[str, None] = {}
    for part in walk(msg, 0, into_messages=True):
        for defect in getattr(part, "defects", ()):
            names.setdefault(f"malformed MIME: {type(defect).__name__}", None)
    return list(names)


def _arrived_cut(msg: Message, raw: bytes) -> str | None:
    """Why the message's last part is known to end in a cut line, if it does: its bytes (those the
    judge reads) end in the middle of a line, and it is longer than the judge reads or a multipart
    message without its closing boundary (the transport cut it)."""
    if raw[:MAX_PARSED_BYTES].endswith(b"\n"):
        return None  # cut, if at all, at the end of a line: every line read is whole
    if len(raw) > MAX_PARSED_BYTES:
        return f"the message is longer than the {MAX_PARSED_BYTES} bytes the judge reads"
    if arrived_cut_defect(msg):
        return "it arrived cut short (its closing MIME boundary is missing)"
    return None


def _cut_of(reading: Reading, msg: Message, raw: bytes) -> str | None:
    """Why the last line read may be cut, if it may: only the message's last part runs into a cut."""
    cut = _arrived_cut(msg, raw) if reading.ends_message else None
    if reading.base64_short:
        cut = "its text part ends in the middle of its base64 encoding"
    if reading.html_cut:
        cut = cut or "its HTML part was cut"
    return cut


def _finish(text: str, problems: list[str], arrived_cut: str | None = None) -> str:
    """The text the command reader gets: never a line cut in the middle (a half order is not run)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    storable = text.encode("utf-8", "replace").decode("utf-8")  # a lone surrogate (UTF-7's +2AA-) is no text
    if storable != text:
        problems.append("characters that are not text (lone surrogates) were read as '?'")
        text = storable
    if len(text) > TEXT_LIMIT:
        text = _without_quotes(text)  # quoted reply text is never read: it must not push orders out
    if len(text) > TEXT_LIMIT:
        kept = text[:TEXT_LIMIT]
        line = kept.count("\n") + 1
        half = "" if text[TEXT_LIMIT] == "\n" or kept.endswith("\n") else kept.rpartition("\n")[2]
        kept = kept[:len(kept) - len(half)]
        last = kept.rstrip("\n").rpartition("\n")[2].strip()[:60]
        problems.append(f"text of {len(text)} characters truncated: only its first {TEXT_LIMIT} characters were read; "
                        f"it was cut in line {line}" + (f", after '{last}'" if last else "")
                        + (f"; the cut line ('{half.strip()[:60]}...') was not run" if half.strip() else ""))
        return kept
    if arrived_cut is not None:
        body = text.rstrip("\n")
        head, _, half = body.rpartition("\n")
        if half.strip():
            problems.append(f"the mail was cut: {arrived_cut}; only the lines before its last were read, and its "
                            f"last line ('{half.strip()[:60]}'), which may be cut, was not run")
            return head + "\n" if head else ""
    return text


def _without_quotes(text: str) -> str:
    """The text without quoted lines (``>``), which the command reader skips anyway."""
    return "\n".join(line for line in text.split("\n") if not line.lstrip().startswith(">"))


# --------------------------------------------------------------------------- rendering


def render_message(mail: OutgoingMail, default_sender: str, *, date: datetime | None = None) -> bytes:
    """RFC 5322 bytes (CRLF line ends, 7-bit) for ``mail``.

    Raises ValueError for header values with line breaks or control characters,
    addresses that are not exactly one address, or bad attachment types.
    """
    sender = mail.sender or default_sender
    for field, value in (
        ("From", sender),
        ("To", mail.to),
        ("Subject", mail.subject),
        ("Message-ID", mail.message_id),
        ("In-Reply-To", mail.in_reply_to or ""),
        ("Reply-To", mail.reply_to or ""),
        ("Auto-Submitted", mail.auto_submitted),
        ("List-Id", mail.list_id or ""),
        ("List-Unsubscribe", mail.unsubscribe or ""),
    ):
        _check_header(field, value)
    sender_address = _check_address("From", sender)
    _check_address("To", mail.to)
    if mail.reply_to:
        _check_address("Reply-To", mail.reply_to)
    if mail.unsubscribe:
        _check_address("List-Unsubscribe", mail.unsubscribe)
    if mail.message_id and not (mail.message_id.isascii() and _MSG_ID.fullmatch(mail.message_id)):
        raise ValueError(f"Message-ID must look like <id@domain>: {mail.message_id!r}")

    headers = [("From", sender), ("To", mail.to), ("Subject", mail.subject),
               ("Date", format_datetime(date or datetime.now(UTC))),
               ("Message-ID", mail.message_id or make_msgid(domain=sender_address.partition("@")[2]))]
    in_reply_to = mail.in_reply_to or ""
    if in_reply_to.isascii() and _MSG_ID.fullmatch(in_reply_to):
        headers += [("In-Reply-To", in_reply_to),
                    ("References", " ".join(thread_references(mail.references, in_reply_to)))]
    if mail.reply_to:
        headers.append(("Reply-To", mail.reply_to))
    headers.append(("Auto-Submitted", mail.auto_submitted))
    headers.append(("X-Auto-Response-Suppress", "All"))  # Exchange and Outlook: no out-of-office or read receipt
    if mail.list_id:
        headers.append(("List-Id", mail.list_id))
    if mail.unsubscribe:
        headers.append(("List-Unsubscribe", unsubscribe_header(mail.unsubscribe)))
    mime = body(mail.text, mail.html, mail.attachments)
    try:  # the header lines as the generator writes them, then the (shared) body's
        return b"".join(header_line(name, value) for name, value in headers) + mime.head + b"\r\n" + mime.data
    except (UnicodeError, ValueError, TypeError) as exc:
        raise ValueError(f"message cannot be rendered: {exc}") from exc


_ADDRESS = r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
_AS_WRITTEN = {  # header -> the values the email package writes as they are (if they fit a line)
    "from": re.compile(_ADDRESS), "to": re.compile(_ADDRESS), "reply-to": re.compile(_ADDRESS),
    "message-id": re.compile(f"<{_ADDRESS}>"),
    "date": re.compile(r"[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}"),
}
_PLAIN = re.compile(r"[!-~]+(?: [!-~]+)*")  # printable ASCII words, single spaces between
_STRUCTURED = frozenset(name for name, kind in HeaderRegistry().registry.items() if not issubclass(kind, UnstructuredHeader))


def header_line(name: str, value: str) -> bytes:
    """``name: value`` as the email package writes it (the SMTP policy's fold, CRLF).  A value the
    package would write as it is goes straight (parsing a header into its classes and folding it
    again cost as much as the rest of a mail): it fits one line, has no encoded word (``=?``), and
    is a bare address (From, To, Reply-To), a plain Message-ID, a date as ``format_datetime``
    writes it, or, in an unstructured header, printable ASCII words with single spaces."""
    if len(name) + 2 + len(value) <= 78 and "=?" not in value:
        kind = name.lower()
        pattern = _AS_WRITTEN.get(kind)
        if (pattern or _PLAIN).fullmatch(value) and (pattern is not None or kind not in _STRUCTURED):
            return f"{name}: {value}\r\n".encode("ascii")
    return _POLICY.fold_binary(*_POLICY.header_store_parse(name, value))




def _check_header(field: str, value: str) -> None:
    bad = forbidden_header_char(value)
    if bad is not None:
        raise ValueError(f"{field} header value contains a forbidden character {bad!r}: {value!r}")


@lru_cache(maxsize=4096)  # the judge's address, and each player's, in every mail
def _check_address(field: str, value: str) -> str:
    parsed = getaddresses([value])
    if len(parsed) != 1 or not bare_address(parsed[0][1]) or not parsed[0][1].isascii():
        raise ValueError(f"{field} must be exactly one ASCII e-mail address: {value!r}")
    return parsed[0][1]
