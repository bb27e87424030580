"""Reading an incoming mail the way the player's own mail client shows it: one pipeline of steps.

1. ``parts``: the text parts a client shows, decoded, in the order it shows them;
2. ``flowed``: ``format=flowed`` text joined (RFC 3676); ``armor``: the text of an inline OpenPGP
   signature without its armour (RFC 4880, section 7);
3. ``html``: an HTML part to lines, up to Outlook's reply marker;
4. ``quotes`` (with ``own``, the judge's guard): where the writer's own text ends;
5. ``furniture``: client and server furniture dropped.

``read_body`` never raises for what a mail holds; it lists what went wrong in ``problems``.
Quote and reply detection is written here by hand rather than taken from a library
(quotequail, mail-parser-reply, talon): see docs/commands.md, "What the judge reads".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import Message

from app.mail.reading.armor import unarmor
from app.mail.reading.flowed import unflow
from app.mail.reading.furniture import drop_furniture
from app.mail.reading.html import html_lines
from app.mail.reading.own import OwnMarks
from app.mail.reading.parts import Part, shown_parts
from app.mail.reading.quotes import find_stop

__all__ = ["HTML_LIMIT", "OwnMarks", "Reading", "read_body", "read_text"]

HTML_LIMIT = 1024 * 1024


@dataclass
class Reading:
    """What the writer wrote: ``text``; where reading stopped (``stopped``: why, "" when it read to the
    end; ``stopped_line``: the line of the text as shown, 1-based) and how many non-blank lines were
    not read below it; the parts not read; whether the last line read may have been cut."""

    text: str = ""
    stopped: str = ""
    stopped_line: int = 0
    unread_lines: int = 0
    unread_parts: list[str] = field(default_factory=list)
    ends_message: bool = False  # the text read runs to the end of the message's last part
    base64_short: bool = False  # the last part read ends in the middle of its base64 encoding
    html_cut: bool = False  # the last part read is HTML longer than the judge reads


def _part_lines(part: Part, problems: list[str]) -> tuple[list[str], list[str], str | None]:
    """(lines read, lines below a reply marker, the marker) of one shown part."""
    if part.html:
        text = part.text
        if len(text) > HTML_LIMIT:
            problems.append(f"HTML body of {len(text)} characters truncated: only its first {HTML_LIMIT} "
                            f"characters were read")
            text = text[:HTML_LIMIT]
        html = html_lines(text)
        return html.lines, html.quoted, html.marker
    text = part.text.replace("\r\n", "\n").replace("\r", "\n")
    if part.flowed:
        text = unflow(text, part.delsp)
    return unarmor(text.split("\n")), [], None


def read_body(msg: Message, problems: list[str], own: OwnMarks | None = None) -> Reading:
    """The text of ``msg`` its writer wrote, as the command finder reads it."""
    parts = shown_parts(msg, problems)
    reading = Reading(unread_parts=parts.unread)
    if not parts.shown:
        if not parts.unread:
            problems.append(f"no text part (the message is {msg.get_content_type()})")
        elif all("attached file" in what for what in parts.unread):
            problems.append("the mail's only text is in attached files (" + ", ".join(parts.unread)
                            + "): attachments are not read; write your commands in the mail itself")
        return reading
    lines: list[str] = []
    stop_why: str | None = None
    quoted: list[str] = []
    for number, part in enumerate(parts.shown):
        read, below, marker = _part_lines(part, problems)
        if lines and read:
            lines.append("")
        lines.extend(read)
        if marker is not None:
            stop_why, quoted = f"a quoted message begins ({marker})", below
            break
        if number == len(parts.shown) - 1:
            reading.ends_message = part.last
            reading.base64_short = part.short_base64
            reading.html_cut = part.html and len(part.text) > HTML_LIMIT
    return _own_text(reading, lines, quoted, stop_why, own)


def read_text(text: str, own: OwnMarks | None = None) -> Reading:
    """Steps 4 and 5 alone, on plain text: what of ``text`` the command finder reads."""
    return _own_text(Reading(), text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), [], None, own)


def _own_text(reading: Reading, lines: list[str], quoted: list[str], stop_why: str | None,
              own: OwnMarks | None) -> Reading:
    stop_line = len(lines) + 1
    stop, dropped = find_stop(lines, own)
    if stop is not None:
        quoted = lines[stop.index:] + quoted
        lines, stop_why, stop_line = lines[:stop.index], stop.why, stop.index + 1
    lines = drop_furniture([line for i, line in enumerate(lines) if i not in dropped])
    if stop_why is not None:
        reading.stopped, reading.stopped_line = stop_why, stop_line
        reading.unread_lines = sum(1 for line in quoted if line.strip())
        reading.ends_message = reading.base64_short = reading.html_cut = False  # a cut, if any, was not read
    text = "\n".join(lines)
    reading.text = text if not text or text.endswith("\n") else text + "\n"
    return reading
