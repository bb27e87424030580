"""The MIME body of an outgoing mail (``render_message``), put together from parts rendered once.

A phase's results go to every player with the same map but each player's own text.  Rendered
whole by the email package, every mail encoded the map in base64 again, then scanned the whole
body (the picture too) for a boundary that does not occur in it, and wrote it out line by line:
most of the CPU a results mail cost.  Here each leaf part (the text, the HTML, a picture) is
rendered by the email package on its own, with the very calls ``add_alternative``,
``add_related`` and ``add_attachment`` make, so its bytes are those it had in the whole mail; a
picture's part is rendered once and kept (``_picture``, a small LRU keyed by the attachment: the
drain hands the same ``bytes`` object to the mails of a phase, so the key is hashed and compared
by identity); the multipart containers are written around the leaves here, line for line as the
email package's generator writes them (its ``_handle_multipart``: ``--B CRLF part CRLF --B CRLF
part ... CRLF --B-- CRLF``, and the ``MIME-Version`` lines where its ``_make_multipart`` leaves
them).  ``whole`` is the email package's own rendering, kept for the text-only mail (one part,
nothing to gain) and as the reference the tests compare with, byte for byte but the boundaries.

The boundaries need no scan.  A boundary here is ``=_`` and a random token.  Every leaf is
quoted-printable (text, HTML) or base64 (pictures): in quoted-printable ``=`` is only ever followed
by two hexadecimal digits or the end of the line (RFC 2045 6.7, rule 1; the email package encodes
every ``=`` of the text as ``=3D``), and ``_`` is not in the base64 alphabet, so ``=_`` occurs in
no leaf's body (RFC 2045 6.7 suggests this very boundary); a leaf's header lines begin with a
field name or white space, never with ``--``; and the containers' own boundaries are distinct
tokens of one length, none the prefix of another.  Each leaf is still checked for ``=_``
(a ``memchr``-speed search of a few kB; a picture's once): should a leaf ever hold it (a part
type not foreseen here), that body is rendered ``whole`` instead.
"""

from __future__ import annotations

import base64
import re
import secrets
from dataclasses import dataclass
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage, MIMEPart
from email.policy import SMTP
from functools import lru_cache

from app.mail.reading.headers import forbidden_header_char
from app.mail.reading.outgoing import flowed, needs_flowing

__all__ = ["POLICY", "Attachment", "Body", "body", "composed", "whole"]


class _HeaderClasses(HeaderRegistry):
    """The email package's header classes, each made once (its own registry makes a new class for
    every header it parses: a fifth of the time a mail took to render)."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type] = {}

    def __getitem__(self, name: str) -> type:
        key = name.lower()
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = super().__getitem__(name)
        return made


POLICY = SMTP.clone(header_factory=_HeaderClasses())
"""The SMTP policy (CRLF, 78 columns) with header classes made once: every part here is made with it."""

_MSG_ID = re.compile(r"<[^<>\s]+>")
_MIME_TOKEN = re.compile(r"[A-Za-z0-9!#$&^_.+-]+")
_MARK = b"=_"  # begins every boundary here; in no quoted-printable or base64 text (see above)
_PLACEHOLDER = "=_" + "0" * 34  # a boundary's length (the email package's, 36), for folding a Content-Type once


@dataclass(frozen=True)
class Attachment:
    """A file the mail carries; with ``content_id`` (no angle brackets) and an HTML part, it is shown
    inline in the HTML (``<img src="cid:...">``, a multipart/related part) instead."""

    filename: str
    content_type: str
    data: bytes
    content_id: str | None = None


@dataclass(frozen=True)
class Body:
    head: bytes  # the MIME header lines (MIME-Version, Content-Type, ...), folded, each ended by CRLF
    data: bytes  # what follows the blank line after the headers


class _Unforeseen(Exception):
    """A leaf holds ``=_``: the body is rendered whole."""


@lru_cache(maxsize=64)
def body(text: str, html: str | None, attachments: tuple[Attachment, ...]) -> Body:
    """The MIME body of a mail, once for every mail that carries the same text, HTML and pictures.
    Raises ValueError for what cannot be rendered (a bad attachment type, Content-ID or filename)."""
    if html is None and not attachments:
        return whole(text, html, attachments)
    try:
        return composed(text, html, attachments)
    except _Unforeseen:
        return whole(text, html, attachments)


# ---------------------------------------------------------------------------------- composed


def composed(text: str, html: str | None, attachments: tuple[Attachment, ...]) -> Body:
    """The body as ``whole`` renders it (but its boundaries), from the leaves and the cached pictures."""
    inline = tuple(a for a in attachments if a.content_id is not None and html is not None)
    attached = tuple(a for a in attachments if a.content_id is None or html is None)
    for attachment in attachments:
        _check_attachment(attachment, attachment in inline)
    leaf_text = _leaf(_text_part(text, MIMEPart))
    node: tuple[bytes, bytes] | bytes = leaf_text  # a leaf, or a container's (head, body)
    if html is not None:
        if inline:  # the HTML part became multipart/related; its MIME-Version stayed with it
            html_node: tuple[bytes, bytes] | bytes = _container(
                "related", [_leaf(_html_part(html, MIMEPart)), *(_picture(a, True) for a in inline)], True)
        else:
            html_node = _leaf(_html_part(html, EmailMessage))
        node = _container("alternative", [leaf_text, _flat(html_node)], not attached)
    if attached:
        node = _container("mixed", [_flat(node), *(_picture(a, False) for a in attached)], True)
    assert isinstance(node, tuple)  # an HTML part or an attachment makes a multipart
    return Body(*node)


def _leaf(part: MIMEPart) -> bytes:
    rendered = part.as_bytes()
    if _MARK in rendered:
        raise _Unforeseen
    return rendered


def _flat(node: tuple[bytes, bytes] | bytes) -> bytes:
    return node if isinstance(node, bytes) else node[0] + b"\r\n" + node[1]


@lru_cache(maxsize=4)
def _content_type(subtype: str) -> bytes:
    """The Content-Type line of a container as the generator folds it (``set_boundary``), with
    ``_PLACEHOLDER`` for its boundary: every boundary here has that length, so it folds alike."""
    name, header = POLICY.header_store_parse("Content-Type", f'multipart/{subtype}; boundary="{_PLACEHOLDER}"')
    return POLICY.fold_binary(name, header)


def _container(subtype: str, parts: list[bytes], mime_version: bool) -> tuple[bytes, bytes]:
    boundary = (_MARK.decode() + secrets.token_hex(17)).encode()
    head = (b"MIME-Version: 1.0\r\n" if mime_version else b"") \
        + _content_type(subtype).replace(_PLACEHOLDER.encode(), boundary)
    data = b"--" + boundary + b"\r\n" + (b"\r\n--" + boundary + b"\r\n").join(parts) + b"\r\n--" + boundary + b"--\r\n"
    return head, data


@lru_cache(maxsize=32)
def _picture(attachment: Attachment, inline: bool) -> bytes:
    """A picture's part, rendered once for the mails that carry it (as ``add_related`` or
    ``add_attachment`` make it: an ``EmailMessage``, so with its own MIME-Version line).  Its header
    lines are the email package's (they do not depend on the data); its base64 lines are
    ``base64.encodebytes``' (in C), which are the email package's: 57 bytes (76 characters) a line
    for its 78 columns (``contentmanager._encode_base64``), each ended here by CRLF."""
    part = EmailMessage(policy=POLICY)
    maintype, _, subtype = attachment.content_type.partition("/")
    if inline:
        part.set_content(b"", maintype=maintype, subtype=subtype, cid=f"<{attachment.content_id}>",
                         filename=attachment.filename, disposition="inline")
    else:
        part.set_content(b"", maintype=maintype, subtype=subtype, filename=attachment.filename)
    if "content-disposition" not in part:
        part["Content-Disposition"] = "inline" if inline else "attachment"
    if part["Content-Transfer-Encoding"] != "base64" or POLICY.max_line_length != 78:
        raise _Unforeseen
    head = _leaf(part)
    return head[:head.index(b"\r\n\r\n") + 4] + base64.encodebytes(attachment.data).replace(b"\n", b"\r\n")


# ---------------------------------------------------------------------------------- whole


def whole(text: str, html: str | None, attachments: tuple[Attachment, ...]) -> Body:
    """The body as the email package renders it, the whole tree at once."""
    part = _text_part(text, EmailMessage)
    if html is not None:
        part.add_alternative(_lines(html), subtype="html", charset="utf-8", cte="quoted-printable")
    for attachment in attachments:
        inline = attachment.content_id is not None and html is not None
        _check_attachment(attachment, inline)
        maintype, _, subtype = attachment.content_type.partition("/")
        if inline:  # into the HTML part, which becomes multipart/related (RFC 2387)
            html_part = part.get_body(preferencelist=("html",))
            if not isinstance(html_part, EmailMessage):
                raise ValueError("an inline picture needs an HTML part")
            html_part.add_related(attachment.data, maintype=maintype, subtype=subtype,
                                  cid=f"<{attachment.content_id}>", filename=attachment.filename,
                                  disposition="inline")
        else:
            part.add_attachment(attachment.data, maintype=maintype, subtype=subtype, filename=attachment.filename)
    try:
        rendered = part.as_bytes()
    except (UnicodeError, ValueError, TypeError) as exc:
        raise ValueError(f"message cannot be rendered: {exc}") from exc
    end = rendered.index(b"\r\n\r\n")
    return Body(rendered[:end + 2], rendered[end + 4:])


# ---------------------------------------------------------------------------------- the leaves


def _text_part(text: str, kind: type[MIMEPart]) -> MIMEPart:
    """The plain text, quoted-printable; flowed (RFC 3676) when a line is longer than 78 columns."""
    part = kind(policy=POLICY)
    text = _lines(text)
    try:
        if needs_flowing(text):
            part.set_content(flowed(text), subtype="plain", charset="utf-8", cte="quoted-printable",
                             params={"format": "flowed", "delsp": "no"})
        else:
            part.set_content(text, subtype="plain", charset="utf-8", cte="quoted-printable")
    except (UnicodeError, ValueError, TypeError) as exc:
        raise ValueError(f"message cannot be rendered: {exc}") from exc
    return part


def _html_part(html: str, kind: type[MIMEPart]) -> MIMEPart:
    part = kind(policy=POLICY)
    try:
        part.set_content(_lines(html), subtype="html", charset="utf-8", cte="quoted-printable")
    except (UnicodeError, ValueError, TypeError) as exc:
        raise ValueError(f"message cannot be rendered: {exc}") from exc
    return part


def _lines(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


def _check_attachment(attachment: Attachment, inline: bool) -> None:
    """A picture's filename, type and (inline) Content-ID, before anything is rendered."""
    bad = forbidden_header_char(attachment.filename)
    if bad is not None:
        raise ValueError(f"attachment filename header value contains a forbidden character {bad!r}: "
                         f"{attachment.filename!r}")
    if inline:
        cid = attachment.content_id or ""
        if not _MSG_ID.fullmatch(f"<{cid}>") or not cid.isascii() or "@" not in cid:
            raise ValueError(f"bad Content-ID: {cid!r}")
    maintype, sep, subtype = attachment.content_type.partition("/")
    if not sep or not all(_MIME_TOKEN.fullmatch(token) for token in (maintype, subtype)):
        raise ValueError(f"bad attachment content type: {attachment.content_type!r}")
