"""The subject of an answer, as mail clients thread it (issue 30 item 8): ``Re: <the subject of the
mail answered>``, one ``Re:`` however many reply prefixes the clients stacked (``RE: AW: Re[2]:``);
the judge's own title (``Diplomacy orders lepanto S1901M``) when the mail had no subject.  Gmail
threads an answer with the mail it answers only when their subjects agree; the game and phase
stand in the answer's first lines (and the game in its ``List-Id``).  A password typed into the
subject is masked, as in every echo."""

from __future__ import annotations

import re

from app.services.mailout.redact import mask_passwords

__all__ = ["answer_subject", "without_reply_prefixes"]

# Reply prefixes of the common clients and languages: Re, RE[2], Re^2, AW (German), SV (Nordic), VS
# (Finnish), Antw (Dutch), Odp (Polish), R/RIF (Italian), RES (Portuguese), Ynt (Turkish), Απ (Greek),
# Отв (Russian), 回复/回覆/答复 (Chinese), 返信 (Japanese).  Forwarding prefixes are kept.
_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|vs|antw|odp|rif|r|res|ynt|απ|отв|ответ)(?:\s*\[\d+\]|\^\d+)?\s*[:：]"
                     r"|(?:回复|回覆|答复|返信)\s*[:：]?)\s*", re.IGNORECASE)


def without_reply_prefixes(subject: str) -> str:
    """``subject`` without the reply prefixes at its start (``RE: Re: AW: x`` is ``x``)."""
    subject = " ".join(subject.split())
    while (match := _PREFIX.match(subject)) is not None and match.end() > 0:
        subject = subject[match.end():]
    return subject.strip()


def answer_subject(subject: str, title: str) -> str:
    """``Re: <subject>`` (its passwords masked), or ``title`` when the subject is empty."""
    topic = without_reply_prefixes(mask_passwords(subject.strip()))
    return f"Re: {topic}" if topic else title
