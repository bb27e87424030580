"""Addresses the judge stores must be addresses it can write to.

The judge sends plain 7-bit mail (no SMTPUTF8), so an address is ASCII: a dot-atom local part
(RFC 5322) and a domain of at least two labels of letters, digits and hyphens.  Anything else
(``josé@example.com``, ``a@b``, ``"quoted name"@x.org``) is refused where it would be stored.

``check_player_address`` also refuses the addresses that no person reads: the judge's own
(``judge@``, its personal reply addresses ``judge+...@``), whose mail the judge drops as its own,
and the automatic senders (``mailer-daemon@``, ``postmaster@``, ``no-reply@``, list robots), whose
mail it drops as automatic: a seat there would never hear from the judge, nor be heard.
"""

from __future__ import annotations

import re

from app.services.errors import DomainError

__all__ = ["automatic_address", "check_address", "check_player_address", "deliverable"]

_LOCAL = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
_LABEL = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
_ROBOTS = frozenset({"mailer-daemon", "mailerdaemon", "mail-daemon", "postmaster", "noreply", "no-reply",
                     "donotreply", "do-not-reply", "do_not_reply", "no_reply", "nobody", "bounce", "bounces",
                     "listserv", "majordomo", "mailman", "autoresponder", "auto-reply", "autoreply", "daemon",
                     "root", "mdaemon", "bounce-handler"})
_ROBOT_PARTS = re.compile(r"^(owner-|bounces?[-+._]|no-?reply[-+._])|(-request|-bounces|-owner)$")


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


def automatic_address(address: str) -> bool:
    """Whether ``address`` is a machine's: a mail daemon, a postmaster, a no-reply or list address."""
    local = address.strip().lower().rpartition("@")[0].partition("+")[0]
    return local in _ROBOTS or bool(_ROBOT_PARTS.search(local))


def check_player_address(address: str, judge_address: str) -> str:
    """``check_address``, and not the judge's own address (``judge_address`` and its ``+token`` forms)
    nor a machine's (``automatic_address``)."""
    address = check_address(address)
    local, _, domain = address.rpartition("@")
    own_local, _, own_domain = judge_address.strip().lower().rpartition("@")
    if domain == own_domain and (local == own_local or local.startswith(own_local + "+")):
        raise DomainError("own_address", f"'{address}' is the judge's own address: the judge cannot write to "
                                         f"itself; give a person's address")
    if automatic_address(address):
        raise DomainError("automatic_address", f"'{address}' is a machine's address (mail daemon, postmaster, "
                                               f"no-reply or list): give a person's address")
    return address
