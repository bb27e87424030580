"""The guard no mail client can defeat: a line of the judge's own making is never run.

A client that quotes without ``>`` and without a separator the reading knows would otherwise
hand the judge its own acknowledgement back, and its ``Current orders for ...`` lines are
valid orders.  So a line the judge writes (in both layouts, ``judge`` and ``zine``: see
``templates/mail/`` and ``docs/samples/``) ends the writer's text; what follows it is taken for
a quote.  With ``OwnMarks`` (the judge's address), a quoted header naming the judge as sender,
or one of its Message-IDs, does too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["OwnMarks", "own_line"]

_PATTERNS = [
    r"^\s*::\s*(Judge|Deadline)\s*:",  # the judge layout's header lines
    r"^\s*Current orders for \S.*:\s*$",
    r"^\s*End of orders\.\s*$",
    r"^\s*Unprocessed portion of message follows:\s*$",
    r"^\s*Orders stored in advance for \S+ \(checked when it begins\):\s*$",
    r"^\s*The deadline for \S+ orders is .+\.\s*$",
    r"^\s*\S.* \(\S+\) -- \S+, deadline .+$",  # the zine's reply header
    r"^\s*[A-Z][A-Z .'-]*: YOUR ORDERS FOR \S+\s*$",
    r"^\s*THE \S.* (GAZETTE|DISPATCH)\s*$",  # the zine's and DoD III's results banners
    r"^\s*DAYS OF DECISION III -- ",
    r"^\s*\S.* results for \S.*\(\S+\.[A-Z]\d{3,}[A-Z]\)\s*$",  # the judge layout's results title
    r"^\s*={60,}\s*$",  # the results' rules (72 '=')
    r"^\s*[*]?(Subject|Betreff|Objet|Asunto|Oggetto|Onderwerp|Assunto|Ämne|Emne|Aihe|Temat|Тема)\s*[*]?\s*:[*]?\s*"
    r"((re|aw|sv|vs|fw|fwd|tr|wg|rv|r|antw|odp)\s*:\s*)*(Diplomacy|DoD3) (orders|results|game|invitation|"
    r"correction|press|reminder|\S+ [A-Z]\d{3,}[A-Z]\b)",
]
_OWN = re.compile("|".join(f"(?:{p})" for p in _PATTERNS), re.IGNORECASE)
_HEADER_KEY = re.compile(r"^[*>\s]*([^\W\d_][\w .'-]{0,24}?)\s*\*?\s*:", re.UNICODE)
_JUDGE_ID = re.compile(r"<[0-9a-f]{32}@([^<>\s]+)>")


@dataclass(frozen=True)
class OwnMarks:
    """What the judge's own mail carries: its address (``judge@domain``)."""

    address: str

    @property
    def local(self) -> str:
        return self.address.partition("@")[0].lower()

    @property
    def domain(self) -> str:
        return self.address.partition("@")[2].lower()


def _names_judge(line: str, own: OwnMarks) -> bool:
    """A quoted header line naming the judge's address (``From: judge@...``) or a Message-ID of its own."""
    if not own.domain or _HEADER_KEY.match(line) is None:
        return False
    lowered = line.lower()
    pattern = rf"(^|[\s<:\[\"'(]){re.escape(own.local)}(\+[a-z0-9]+)?@{re.escape(own.domain)}\b"
    if re.search(pattern, lowered):
        return True
    return any(match.group(1) == own.domain for match in _JUDGE_ID.finditer(lowered))


def own_line(line: str, own: OwnMarks | None = None) -> bool:
    """Whether ``line`` (not quoted with ``>``) is one the judge itself writes (none is longer than 1000)."""
    if len(line) > 1000:
        return False
    if _OWN.search(line):
        return True
    return own is not None and _names_judge(line, own)
