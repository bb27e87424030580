"""``Authentication-Results`` (RFC 8601): did the sender's domain vouch for this mail, or disown it?

Only headers of the judge's own mail server count: those whose authserv-id is the configured
``JUDGE_AUTHSERV_ID`` (docker-compose.yml sets the mail server's).  The server adds its headers
on top of the mail, above whatever the sender wrote, so a *pass* is read only from the topmost
ones: the run of headers with our authserv-id that starts at the first ``Authentication-Results``
of the mail.  A header with our authserv-id further down was written by someone else (the sender
can write any): its *pass* proves nothing, but its *fail* is believed all the same (it can only
harm the mail it is in).  Every header is read, however many there are.

The verdict (``AuthVerdict``), for the domain of the ``From`` address:

- ``fail``: ``dmarc=fail`` for the From domain; or ``spf=fail`` / ``spf=softfail`` for an envelope
  sender in the From domain (or a subdomain of it, or it in one), unless the server's DMARC check
  passed (a forwarded mail fails SPF and passes DMARC by its DKIM signature);
- ``pass``: ``dmarc=pass``, or an aligned ``spf=pass`` or ``dkim=pass`` (envelope sender, or the
  signing domain ``header.d``, in the From domain);
- ``unproven``: anything else: ``none``, ``neutral``, ``permerror``, ``temperror``, ``policy``, an
  unaligned pass, no header of ours at all;
- ``unchecked``: no ``JUDGE_AUTHSERV_ID`` configured (the embedded judge): no header is read.

What each verdict means for the commands is in docs/commands.md ("Forged mail").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

__all__ = ["AuthVerdict", "sender_authentication", "sender_failed_authentication"]

_COMMENT = re.compile(r"\([^()]*\)")
_RESULT = re.compile(r"^\s*([A-Za-z][\w-]*)\s*=\s*([A-Za-z]+)")
_PROPERTY = re.compile(r"([A-Za-z][\w-]*)\.([A-Za-z][\w-]*)\s*=\s*(\"[^\"]*\"|[^\s;]+)")
_FAILING_SPF = frozenset({"fail", "softfail"})


class AuthVerdict(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    UNPROVEN = "unproven"
    UNCHECKED = "unchecked"


def _domain(value: str) -> str:
    return value.strip('"').rpartition("@")[2].strip().rstrip(".").lower()


def _aligned(named: str | None, from_domain: str) -> bool:
    """Relaxed alignment without a public-suffix list: the same domain, or one a subdomain of the other."""
    if named is None:
        return False
    domain = _domain(named)
    return bool(domain) and (domain == from_domain or domain.endswith("." + from_domain)
                             or from_domain.endswith("." + domain))


def _results(header: str) -> tuple[str, list[tuple[str, str, dict[str, str]]]]:
    """(authserv-id, [(method, result, properties)]) of one header, comments taken out."""
    text = " ".join(header.split())
    while True:
        stripped = _COMMENT.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    serv, _, rest = text.partition(";")
    words = serv.split()
    found = []
    for resinfo in rest.split(";"):
        match = _RESULT.match(resinfo)
        if match is None:
            continue
        props = {f"{p.lower()}.{n.lower()}": v for p, n, v in _PROPERTY.findall(resinfo[match.end():])}
        found.append((match.group(1).lower(), match.group(2).lower(), props))
    return (words[0].lower() if words else ""), found


def sender_authentication(headers: Iterable[str], authserv_id: str, sender: str) -> AuthVerdict:
    """The verdict of the judge's own mail server on ``sender``'s domain, from the mail's
    ``Authentication-Results`` headers (all of them, top first)."""
    wanted = authserv_id.strip().lower()
    from_domain = _domain(sender)
    if not wanted:
        return AuthVerdict.UNCHECKED
    if not from_domain:
        return AuthVerdict.UNPROVEN
    top: list[tuple[str, str, dict[str, str]]] = []  # results of the topmost run of our own headers
    ours_anywhere: list[tuple[str, str, dict[str, str]]] = []
    in_top_run = True
    for header in headers:
        serv, results = _results(header)
        if serv != wanted:
            in_top_run = False
            continue
        ours_anywhere.extend(results)
        if in_top_run:
            top.extend(results)

    def _about_sender(method: str, props: dict[str, str]) -> bool:
        key = "header.from" if method == "dmarc" else "smtp.mailfrom"
        named = props.get(key)
        return named is None or _domain(named) == from_domain or (method == "spf" and _aligned(named, from_domain))

    if any(m == "dmarc" and r == "fail" and _about_sender(m, p) for m, r, p in ours_anywhere):
        return AuthVerdict.FAIL
    dmarc_pass = any(m == "dmarc" and r == "pass" and _about_sender(m, p) for m, r, p in top)
    if not dmarc_pass and any(m == "spf" and r in _FAILING_SPF and _about_sender(m, p) for m, r, p in ours_anywhere):
        return AuthVerdict.FAIL
    if dmarc_pass:
        return AuthVerdict.PASS
    for method, result, props in top:
        if result != "pass":
            continue
        if method == "spf" and _aligned(props.get("smtp.mailfrom"), from_domain):
            return AuthVerdict.PASS
        if method == "dkim" and _aligned(props.get("header.d"), from_domain):
            return AuthVerdict.PASS
    return AuthVerdict.UNPROVEN


def sender_failed_authentication(headers: Iterable[str], authserv_id: str, sender: str) -> bool:
    """True when the judge's own mail server says SPF or DMARC failed for the domain of ``sender``
    (``fail``; a ``softfail`` of SPF too, unless DMARC passed): the sender is taken for forged."""
    return sender_authentication(headers, authserv_id, sender) == AuthVerdict.FAIL
