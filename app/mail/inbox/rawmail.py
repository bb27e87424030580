"""One message as an inbox hands it over: an opaque id and the raw bytes."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["InboxUnavailable", "RawMail"]


@dataclass(frozen=True)
class RawMail:
    """``uid`` is opaque: pass it back to ``mark_done`` or ``quarantine`` of the same inbox."""

    uid: str
    raw: bytes


class InboxUnavailable(Exception):
    """The mail server could not be reached, even after the bounded reconnection attempts."""
