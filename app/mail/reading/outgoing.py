"""The judge's own mail, shaped the way mail clients thread, filter and show it (issue 30 item 8).

- ``references``: the ``References`` of an answer, the player's own ``References`` and then their
  ``Message-ID`` (RFC 5322 section 3.6.4), trimmed as the RFC allows when the chain is long;
- ``flowed``: a text whose lines are longer than ``WIDTH`` sent as ``format=flowed`` (RFC 3676):
  each long line soft-broken at spaces into lines of at most ``WIDTH`` columns, lines starting
  with a space or ``From `` space-stuffed; a client that knows flowed text joins them again,
  any other shows lines that fit;
- ``list_id``: the ``List-Id`` of a game (RFC 2919), for filtering a game's mail;
- ``unsubscribe_header``: the ``List-Unsubscribe`` of a seat's mail (RFC 2369), a ``mailto:``.
"""

from __future__ import annotations

import re

__all__ = ["AUTO_GENERATED", "AUTO_REPLIED", "MAX_REFERENCES", "WIDTH", "flowed", "list_id", "needs_flowing",
           "references", "unsubscribe_header"]

WIDTH = 78
"""Columns of a line (RFC 5322 section 2.1.1: "SHOULD be no more than 78 characters")."""
MAX_REFERENCES = 10
"""Message-IDs kept in a ``References``: the first of the thread and the last ones (RFC 5322 3.6.4)."""
AUTO_REPLIED = "auto-replied"
AUTO_GENERATED = "auto-generated"
_MSG_ID = re.compile(r"<[!-;=?-~]+>")  # visible ASCII but '<' and '>' (as ``render_message`` takes an In-Reply-To)
_WORD = re.compile(r"\s*\S+\s*")


def references(earlier: str | tuple[str, ...] | None, message_id: str | None) -> tuple[str, ...]:
    """The ``References`` of an answer to a mail whose ``References`` were ``earlier`` and whose
    Message-ID is ``message_id``: earlier's IDs, then ``message_id``; anything that is no Message-ID
    dropped, each ID once; a long chain keeps its first ID and its last ones."""
    found: list[str] = []
    text = " ".join(earlier) if isinstance(earlier, tuple) else (earlier or "")
    for candidate in [*_MSG_ID.findall(text), *(_MSG_ID.findall(message_id or ""))]:
        if candidate in found:
            found.remove(candidate)  # the latest place counts: the chain stays in order
        found.append(candidate)
    if len(found) > MAX_REFERENCES:
        found = [found[0], *found[-(MAX_REFERENCES - 1):]]
    return tuple(found)


def needs_flowing(text: str, width: int = WIDTH) -> bool:
    """Whether a line of ``text`` is longer than ``width`` columns."""
    return any(len(line) > width for line in text.split("\n"))


def _stuffed(content: str, quote: str) -> str:
    """One output line: the quote marks with the conventional space after them (which a reader
    removes as stuffing), or the content space-stuffed when it starts with a space or ``From ``."""
    if quote:
        return f"{quote} {content}" if content else quote
    return f" {content}" if content.startswith((" ", "From ")) else content


def _flow_line(line: str, width: int) -> list[str]:
    if line == "-- ":
        return [line]  # the signature separator, never soft (RFC 3676 section 4.3)
    line = line.rstrip(" ")  # a line ending in a space would be soft: only our breaks end so
    depth = len(line) - len(line.lstrip(">"))
    quote, content = line[:depth], line[depth:]
    if quote and content.startswith(" "):
        content = content[1:]  # the space after the quote marks: written again by ``_stuffed``
    whole = _stuffed(content, quote)
    if len(whole) <= width:
        return [whole]
    out: list[str] = []
    current = ""
    for word in _WORD.findall(content):  # each word with the spaces after it: a break leaves them at the end
        if current and len(_stuffed(current + word, quote)) > width:
            out.append(_stuffed(current, quote))
            current = ""
        current += word
    out.append(_stuffed(current, quote))
    return out


def flowed(text: str, width: int = WIDTH) -> str:
    """``text`` as ``format=flowed; delsp=no`` lines (RFC 3676): a line of at most ``width`` columns
    stays as it is (its trailing spaces dropped, stuffed if need be), a longer one is broken at its
    spaces into lines of at most ``width`` columns each ending in the space it was broken at (a word
    longer than ``width`` stays whole).  Lines starting with ``>`` are quoted lines, broken as such."""
    ends = text.endswith("\n")
    lines = text[:-1].split("\n") if ends else text.split("\n")
    out = [piece for line in lines for piece in _flow_line(line, width)]
    return "\n".join(out) + ("\n" if ends else "")


def list_id(game: str, domain: str) -> str:
    """The ``List-Id`` of a game's mail: ``Game <name> <<name>.games.<domain>>`` (RFC 2919)."""
    return f"Game {game} <{game.lower()}.games.{domain.lower()}>"


def unsubscribe_header(address: str) -> str:
    """``List-Unsubscribe`` (RFC 2369): a mail to the one-time ``address`` stops the seat's mail."""
    return f"<mailto:{address}?subject=unsubscribe>"
