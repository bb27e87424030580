"""Text a person sent, made safe to read and to relay: no invisible characters, no terminal controls.

- ``strip_invisible``: the characters that show nothing but change what a line means to a parser
  or a reader (a byte-order mark or zero-width space before ``SIGNON``, bidi overrides that turn
  text around) are removed before a mail line is read.
- ``clean_text``: the text of a press (stored and mailed on to others) keeps only printable
  characters, line ends and tabs: terminal escape sequences (``ESC ] 0;title BEL``, ``ESC [31m``)
  go whole, every other C0 or C1 control and every bidi control goes.
"""

from __future__ import annotations

import re

__all__ = ["INVISIBLE", "clean_text", "strip_invisible"]

INVISIBLE = frozenset(
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"
    "\u200b\u200c\u200d\u200e\u200f"
    "\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\u206a\u206b\u206c\u206d\u206e\u206f"
    "\ufeff\ufff9\ufffa\ufffb"
)
"""Format characters that show nothing: soft hyphen, zero-width ones, bidi marks, embeddings,
overrides and isolates, the byte-order mark, interlinear annotation."""

_DROP = {ord(char): None for char in INVISIBLE}
# ESC-introduced sequences: CSI (ESC [ ... final), OSC/DCS/PM/APC/SOS strings (up to BEL or ESC \),
# and the two-character escapes; then C1 CSI/OSC written as single code points.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def strip_invisible(text: str) -> str:
    """``text`` without the characters that show nothing (``INVISIBLE``)."""
    return text.translate(_DROP)


def clean_text(text: str) -> str:
    """``text`` with only what a reader sees: no escape sequences, controls (but newline and tab)
    or invisible characters."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROLS.sub("", _ESCAPES.sub("", strip_invisible(text)))
