"""``Authentication-Results`` (RFC 8601): did the sender's domain fail SPF or DMARC?

Only the header added by the judge's own mail server counts: the one whose authserv-id is the
configured ``JUDGE_AUTHSERV_ID`` (none configured: no header is trusted, nobody is a stranger by it).
A ``dmarc=fail`` for the From domain, or an ``spf=fail`` whose envelope sender is in the From
domain, makes the sender a stranger: answers to it never carry a personal reply address, and
a seat locked against password guessing refuses its password sign-ons.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["sender_failed_authentication"]

_COMMENT = re.compile(r"\([^()]*\)")
_RESULT = re.compile(r"^\s*([A-Za-z][\w-]*)\s*=\s*([A-Za-z]+)")
_PROPERTY = re.compile(r"([A-Za-z][\w-]*)\.([A-Za-z][\w-]*)\s*=\s*(\"[^\"]*\"|[^\s;]+)")


def _domain(value: str) -> str:
    return value.strip('"').rpartition("@")[2].strip().rstrip(".").lower()


def _fails(resinfo: str, from_domain: str) -> bool:
    match = _RESULT.match(resinfo)
    if match is None:
        return False
    method, result = match.group(1).lower(), match.group(2).lower()
    if method not in ("dmarc", "spf") or result != "fail":
        return False
    props = {f"{p.lower()}.{n.lower()}": v for p, n, v in _PROPERTY.findall(resinfo[match.end():])}
    key = "header.from" if method == "dmarc" else "smtp.mailfrom"
    named = props.get(key)
    return named is None or _domain(named) == from_domain


def sender_failed_authentication(headers: Iterable[str], authserv_id: str, sender: str) -> bool:
    """True when a header of our own server says SPF or DMARC failed for the domain of ``sender``."""
    wanted = authserv_id.strip().lower()
    from_domain = _domain(sender)
    if not wanted or not from_domain:
        return False
    for header in headers:
        text = _COMMENT.sub(" ", " ".join(header.split()))
        serv, _, rest = text.partition(";")
        words = serv.split()
        if not words or words[0].lower() != wanted:
            continue
        if any(_fails(resinfo, from_domain) for resinfo in rest.split(";")):
            return True
    return False
