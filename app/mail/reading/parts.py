"""Step 1 of the reading: the text parts a mail client shows, decoded, in the order it shows them.

A client shows every inline text part of a ``multipart/mixed`` one after the other (Apple Mail
and iPhone Mail put the text after a pasted photo into a part of its own), and one alternative
of a ``multipart/alternative`` (we take the plain text, or the HTML when there is no plain
text).  A text part with a file name but no ``attachment`` disposition is shown inline, as
clients show it.  Attachments, pictures and forwarded messages are not read; the parts that
could have carried text (a text file attached, Outlook's rich text in ``winmail.dat``, a
forwarded message) are named in ``Parts.unread`` so that the answer can say so.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.errors import CloseBoundaryNotFoundDefect
from email.message import Message

from app.mail.reading.headers import clean

__all__ = ["MAX_DEPTH", "Part", "Parts", "shown_parts", "walk"]

MAX_DEPTH = 32
_REFUSED_CODECS = frozenset({"idna", "punycode", "unicode_escape", "raw_unicode_escape", "undefined"})
_TNEF = frozenset({"application/ms-tnef", "application/vnd.ms-tnef"})
TNEF_PROBLEM = ("your mail client sent Outlook's rich text format (winmail.dat), which the judge cannot read: "
                "set it to send plain text or HTML")


@dataclass(frozen=True)
class Part:
    """One text part as shown: its decoded text, whether it is HTML, its flowed-text parameters."""

    text: str
    html: bool = False
    flowed: bool = False
    delsp: bool = False
    last: bool = False  # the last leaf of the message: a cut in transport runs into it
    short_base64: bool = False  # its base64 encoding stops short: its last line may be cut


@dataclass
class Parts:
    shown: list[Part] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # "the attached file 'orders.txt'", ...


def walk(part: Message, depth: int = 0, into_messages: bool = False) -> Iterator[Message]:
    """Every part of the tree (depth-first, in order); forwarded messages only with ``into_messages``."""
    yield part
    if depth >= MAX_DEPTH or not part.is_multipart():
        return
    if part.get_content_maintype() == "message" and not into_messages:
        return
    payload = part.get_payload()
    if isinstance(payload, list):
        for sub in payload:
            if isinstance(sub, Message):
                yield from walk(sub, depth + 1, into_messages)


def arrived_cut_defect(msg: Message) -> bool:
    return any(isinstance(defect, CloseBoundaryNotFoundDefect)
               for part in walk(msg) for defect in getattr(part, "defects", ()))


def _disposition(part: Message) -> str:
    return str(part.get("Content-Disposition", "")).split(";")[0].strip().lower()


def _filename(part: Message) -> str | None:
    try:
        return part.get_filename()
    except Exception:
        return "(unnamed)"


def shown_parts(msg: Message, problems: list[str]) -> Parts:
    """The text parts ``msg``'s reader sees, in the order shown, and the parts left unread."""
    parts = Parts()
    leaves = [p for p in walk(msg) if not p.is_multipart()]
    last = leaves[-1] if leaves else None
    _collect(msg, 0, parts, problems, last)
    return parts


def _collect(part: Message, depth: int, parts: Parts, problems: list[str], last: Message | None) -> None:
    ctype = part.get_content_type()
    if depth >= MAX_DEPTH:
        return
    if part.get_content_maintype() == "message":
        if part.is_multipart() or ctype == "message/rfc822":
            parts.unread.append("a forwarded message attached to the mail")
        return
    if part.is_multipart():
        subs = [p for p in part.get_payload() if isinstance(p, Message)] if isinstance(part.get_payload(), list) else []
        if ctype == "multipart/alternative":
            choice = _alternative(subs)
            if choice is not None:
                _collect(choice, depth + 1, parts, problems, last)
            return
        if ctype == "multipart/related" and subs:
            _collect(subs[0], depth + 1, parts, problems, last)  # the root; the rest are its pictures
            return
        if ctype == "multipart/signed" and subs:
            _collect(subs[0], depth + 1, parts, problems, last)  # the signature is no text
            return
        for sub in subs:
            _collect(sub, depth + 1, parts, problems, last)
        return
    _leaf(part, parts, problems, last)


def _alternative(subs: list[Message]) -> Message | None:
    """The alternative read: the plain text (or a multipart holding it) if it has any text, else HTML."""
    def has(sub: Message, wanted: str) -> bool:
        return any(p.get_content_type() == wanted and _disposition(p) != "attachment" for p in walk(sub))
    for wanted in ("text/plain", "text/html"):
        for sub in subs:
            if has(sub, wanted) and (wanted == "text/html" or _nonblank(sub)):
                return sub
    return subs[-1] if subs else None


def _nonblank(sub: Message) -> bool:
    for part in walk(sub):
        if part.get_content_type() == "text/plain":
            try:
                data = part.get_payload(decode=True)
            except Exception:
                return True
            if isinstance(data, bytes) and data.strip():
                return True
    return False


def _leaf(part: Message, parts: Parts, problems: list[str], last: Message | None) -> None:
    ctype = part.get_content_type()
    disposition = _disposition(part)
    name = _filename(part)
    if ctype in _TNEF or (name or "").lower() == "winmail.dat":
        parts.unread.append("Outlook's rich text (winmail.dat)")
        problems.append(TNEF_PROBLEM)
        return
    if ctype not in ("text/plain", "text/html"):
        if part.get_content_maintype() == "text" and disposition != "inline":
            parts.unread.append(f"the attached file {clean(name or ctype, 80)!r} ({ctype})")
        return
    if disposition == "attachment":
        parts.unread.append(f"the attached file {clean(name or ctype, 80)!r} ({ctype})")
        return
    text = part_text(part, problems)
    params = {k.lower(): v.lower() for k, v in _params(part)}
    parts.shown.append(Part(text=text, html=ctype == "text/html", flowed=params.get("format") == "flowed",
                            delsp=params.get("delsp") == "yes", last=part is last, short_base64=_base64_short(part)))


def _params(part: Message) -> list[tuple[str, str]]:
    try:
        return [(str(k), str(v)) for k, v in (part.get_params() or [])]
    except Exception:
        return []


def _base64_short(part: Message) -> bool:
    """A base64 text part whose encoding stops short (not a whole number of 4-character groups)."""
    if str(part.get("Content-Transfer-Encoding", "")).strip().lower() != "base64":
        return False
    payload = part.get_payload()
    return isinstance(payload, str) and len("".join(payload.split())) % 4 != 0


def part_text(part: Message, problems: list[str]) -> str:
    try:
        data = part.get_payload(decode=True)
    except Exception:
        problems.append("undecodable transfer encoding")
        data = None
    if not isinstance(data, bytes):
        payload = part.get_payload()
        data = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""
    try:
        charset = part.get_content_charset()
    except Exception:
        charset = None
        problems.append("unreadable charset parameter")
    return decode(data, charset, problems)


def decode(data: bytes, charset: str | None, problems: list[str]) -> str:
    if charset is None:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            problems.append("no charset declared and the text is not UTF-8: read as windows-1252")
            return data.decode("cp1252", "replace")
    try:
        name = codecs.lookup(charset).name.replace("-", "_")
    except (LookupError, ValueError, TypeError):
        name = ""
    if not name or name in _REFUSED_CODECS:
        problems.append(f"unknown charset {clean(charset, 40)!r}: read as UTF-8")
        return data.decode("utf-8", "replace")
    try:
        return data.decode(name)
    except UnicodeDecodeError:
        pass
    except (LookupError, ValueError, TypeError):  # a codec that is not a text encoding
        problems.append(f"unusable charset {clean(charset, 40)!r}: read as UTF-8")
        return data.decode("utf-8", "replace")
    if name == "ascii":
        try:
            return data.decode("utf-8")  # mislabelled UTF-8, very common
        except UnicodeDecodeError:
            pass
    problems.append(f"bytes not valid in charset {clean(charset, 40)!r} were replaced")
    return data.decode(name, "replace")
