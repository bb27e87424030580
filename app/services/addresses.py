"""Addresses the judge stores must be addresses it can write to.

The judge sends plain 7-bit mail (no SMTPUTF8), so an address is ASCII: a dot-atom local part
(RFC 5322) and a domain of at least two labels of letters, digits and hyphens.  Anything else
(``josé@example.com``, ``a@b``, ``"quoted name"@x.org``) is refused where it would be stored.
"""

from __future__ import annotations

import re

from app.services.errors import DomainError

__all__ = ["check_address", "deliverable"]

_LOCAL = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
_LABEL = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")


def deliverable(address: str) -> str | None:
    """Why the judge cannot write to ``address``; None when it can."""
    if not address:
        return "no address given"
    if not address.isascii():
        return "it has characters outside ASCII, which this judge cannot send to"
    if len(address) > 254:
        return "it is longer than 254 characters"
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        return "it is not of the form name@domain"
    if len(local) > 64 or not _LOCAL.match(local):
        return f"'{local}' is not a valid mailbox name"
    labels = domain.split(".")
    if len(labels) < 2 or not all(_LABEL.match(label) for label in labels) or labels[-1].isdigit():
        return f"'{domain}' is not a valid mail domain"
    return None


def check_address(address: str) -> str:
    """``address`` lower-cased, or ``DomainError('bad_address')`` saying why the judge cannot write to it."""
    address = address.strip().lower()
    why = deliverable(address)
    if why is not None:
        raise DomainError("bad_address", f"the judge cannot write to '{address}': {why}")
    return address
