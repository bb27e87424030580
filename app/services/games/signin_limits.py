"""The limits of the dashboard's sign-in: failed tries per address, per client and per address from
one client, and codes mailed per address and per client.

Failures for one address never block another: a password sign-in is refused for an address that
failed ``ADDRESS_FAILURES`` times within ``WINDOW`` (whoever tried), but a code mailed to it still
signs its owner in.  A code is refused only to a client that failed ``PAIR_FAILURES`` times for the
address (passwords or codes): strangers cannot use up the owner's codes.  The per-client limit (``CLIENT_FAILURES``)
is high enough for many people behind one proxy; the client is the real one only behind proxies
named in ``JUDGE_WEB_TRUSTED_PROXIES``.

Parallel requests never overrun a limit: each check takes the lock of what it counts (the client,
then the address: ``app.db.locks``) and holds it until its request commits, with the attempt it
records, so the next request for the same client or address counts it (issue 29 item 7).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, delete, func, select
from sqlalchemy.orm import Session

from app.db.locks import hold_locks
from app.db.models_web import EmailCode, SignInAttempt
from app.services.errors import DomainError
from app.services.kernel.uow import UnitOfWork

__all__ = [
    "ADDRESS_FAILURES",
    "CLIENT_CODES",
    "CLIENT_FAILURES",
    "CODE_LIFETIME",
    "CODES_PER_ADDRESS",
    "PAIR_FAILURES",
    "WINDOW",
    "check_client",
    "check_code_tries",
    "check_password_tries",
    "codes_left",
    "record_attempt",
]

WINDOW = timedelta(minutes=15)
ADDRESS_FAILURES = 10  # failed sign-ins for one address (from any client): password sign-in refused
PAIR_FAILURES = 15  # failed tries for one address from one client: that client's codes refused too
CLIENT_FAILURES = 100  # failed tries of any kind from one client, for any addresses
CODE_LIFETIME = timedelta(minutes=30)
CODES_PER_ADDRESS = 3  # codes mailed to one address within CODE_LIFETIME (the last ones stay valid)
CLIENT_CODES = 30  # codes one client may ask for within CODE_LIFETIME

_MINUTES = int(WINDOW.total_seconds() // 60)


def _failures(db: Session, since: datetime, *where: ColumnElement[bool]) -> int:
    stmt = select(func.count()).select_from(SignInAttempt).where(
        SignInAttempt.at >= since, SignInAttempt.ok.is_(False), *where)
    return int(db.scalar(stmt) or 0)


def _lock_client(db: Session, client: str) -> None:
    hold_locks(db, f"signin-client:{client[:100]}")


def _lock_address(db: Session, address: str) -> None:
    hold_locks(db, f"signin-address:{address[:320]}")


def record_attempt(uow: UnitOfWork, address: str, client: str, ok: bool, now: datetime) -> None:
    db = uow.session
    db.add(SignInAttempt(address=address[:320], client=client[:100], ok=ok, at=now))
    db.flush()


def check_client(uow: UnitOfWork, client: str, now: datetime) -> None:
    """Refuse a client with too many failures of any kind (forgets tries older than the window)."""
    db = uow.session
    _lock_client(db, client)
    since = now - WINDOW
    db.execute(delete(SignInAttempt).where(SignInAttempt.at < since))
    if _failures(db, since, SignInAttempt.client == client[:100]) >= CLIENT_FAILURES:
        raise DomainError("too_many_attempts", f"Too many failed sign-ins from your network: wait {_MINUTES} "
                                               "minutes and try again.")


def check_password_tries(uow: UnitOfWork, address: str, now: datetime) -> None:
    """Refuse a password sign-in for an address with too many failures; its code still works."""
    db = uow.session
    _lock_address(db, address)
    if _failures(db, now - WINDOW, SignInAttempt.address == address[:320]) >= ADDRESS_FAILURES:
        raise DomainError("address_locked", "Too many failed sign-ins for this address: sign in with a code "
                                            f"mailed to it instead, or wait {_MINUTES} minutes.")


def check_code_tries(uow: UnitOfWork, address: str, client: str, now: datetime) -> None:
    """Refuse a code from a client that failed too often for this address (other clients may go on)."""
    db = uow.session
    _lock_address(db, address)
    if _failures(db, now - WINDOW, SignInAttempt.address == address[:320],
                 SignInAttempt.client == client[:100]) >= PAIR_FAILURES:
        raise DomainError("too_many_attempts", f"Too many wrong codes: wait {_MINUTES} minutes and try again.")


def codes_left(uow: UnitOfWork, address: str, client: str, now: datetime) -> bool:
    """May one more code be mailed to ``address``?  False when it had its share lately (the codes
    it has are still valid); a client asking for too many is refused (after ``check_client``)."""
    db = uow.session
    _lock_address(db, address)
    since = now - CODE_LIFETIME
    by_client = db.scalar(select(func.count()).select_from(EmailCode).where(
        EmailCode.client == client[:100], EmailCode.created_at >= since)) or 0
    if by_client >= CLIENT_CODES:
        raise DomainError("too_many_codes", "Too many codes asked for from your network: wait "
                                            f"{int(CODE_LIFETIME.total_seconds() // 60)} minutes.")
    by_address = db.scalar(select(func.count()).select_from(EmailCode).where(  # the codes mailed (not the
        EmailCode.email == address, EmailCode.created_at >= since,          # requests that mailed none)
        EmailCode.expires_at > EmailCode.created_at)) or 0
    return int(by_address) < CODES_PER_ADDRESS
