"""Addresses the judge may write to on a web request's word (a sign-in code, an invitation): one
it can deliver to (``addresses.check_address``), and never its own or a mail system's (the
``judge@``/``judge+token@`` addresses, ``postmaster@``, ``mailer-daemon@``), whose mail would loop
or be lost."""

from __future__ import annotations

from app.services.errors import DomainError
from app.services.kernel.context import Judge
from app.services.mailout.addresses import check_address

__all__ = ["writable_recipient"]

_SYSTEM = ("postmaster", "mailer-daemon", "abuse", "noreply", "no-reply")


def writable_recipient(judge: Judge, address: str) -> str:
    """``address`` lower-cased, or ``DomainError('bad_address')``."""
    address = check_address(address)
    local, _, domain = address.rpartition("@")
    own_local = judge.settings.judge_local.lower()
    own = domain == judge.settings.judge_domain.lower() and (local == own_local or local.startswith(own_local + "+"))
    if own or local in _SYSTEM:
        raise DomainError("bad_address", f"the judge does not write to '{address}'")
    return address
