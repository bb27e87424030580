"""Deprecated location: the mail session lives in the mail door (``app.mail.session``).

A short-lived re-export for modules not yet switched; the integrator deletes it.
"""

from __future__ import annotations

from app.mail.session import EchoItem, MailSession

__all__ = ["EchoItem", "MailSession"]
