"""Proof of a mailbox: a one-time code mailed to an address signs its owner in, makes a new GM
account (sign-up), or sets a new password (reset).

A code is ten letters and digits (about 50 bits), kept only as an argon2 hash, valid for
``CODE_LIFETIME`` and used once; the limits are in ``signin_limits``.  The judgekeeper's account is
never made here: no code is mailed for the keeper's address until the command line has made it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from app.db.models_web import EmailCode, GmAccount, WebSession
from app.services.errors import DomainError
from app.services.games.gm_accounts import MIN_PASSWORD, SignedIn, normal_address, open_session
from app.services.games.signin_limits import CODE_LIFETIME, check_client, check_code_tries, codes_left, record_attempt
from app.services.kernel.context import Judge
from app.services.kernel.security import hash_password, verify_password
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.outbox import enqueue
from app.services.mailout.recipients import writable_recipient

__all__ = ["CODE_ALPHABET", "CodeRequest", "request_code", "sign_in_with_code"]

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
_CODE_LENGTH = 10


@dataclass(frozen=True)
class CodeRequest:
    """What became of a request: ``mailed`` is False when the address had its share of codes lately
    or cannot have an account (the page says the same either way)."""

    address: str
    mailed: bool


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(_CODE_LENGTH))


def _clean(code: str) -> str:
    return "".join(c for c in code.upper() if c.isalnum())[:40]


def request_code(judge: Judge, uow: UnitOfWork, address: str, *, client: str, keeper_address: str) -> CodeRequest:
    """Mail a sign-in code to ``address`` (through the outbox), within the limits."""
    db = uow.session
    address = writable_recipient(judge, address)
    now = judge.now()
    check_client(uow, client, now)
    # Whether a code goes or not, the same work is done (a code made and hashed, the mail written):
    # the time of the answer never tells which (issue 29 item 11).
    mailed = codes_left(uow, address, client, now)
    account = db.scalar(select(GmAccount).where(GmAccount.email == address))
    if account is None and address == normal_address(keeper_address):
        mailed = False  # made only by `judge dashboard account`
    code = _new_code()
    code_hash = hash_password(code)
    minutes = int(CODE_LIFETIME.total_seconds() // 60)
    shown = f"{code[:5]}-{code[5:]}"
    text = (f"Someone asked to sign in to the Postal Judge dashboard as {address}.\n\n"
            f"    Your code: {shown}\n\n"
            f"It works once, within {minutes} minutes.  With it you may also choose a new password.\n"
            "If it was not you, do nothing: without the code nobody can sign in as you.\n")
    # A request that mails nothing is written down too, as a code expired and spent when made (no
    # one knows it): the same rows are written either way; the client's requests count either way.
    db.add(EmailCode(email=address, code_hash=code_hash, client=client[:100], created_at=now,
                     expires_at=now + CODE_LIFETIME if mailed else now, used_at=None if mailed else now))
    if not mailed:
        db.flush()
        return CodeRequest(address, False)
    enqueue(uow, judge, to=address, subject="Postal Judge dashboard: your sign-in code", text=text,
            kind="signin_code")
    db.flush()
    return CodeRequest(address, True)


def _matching_code(db: Session, address: str, code: str, judge: Judge) -> EmailCode | None:
    now = judge.now()
    live = db.scalars(select(EmailCode).where(EmailCode.email == address, EmailCode.used_at.is_(None),
                                              EmailCode.expires_at > now).order_by(EmailCode.id.desc()))
    for row in live:
        if verify_password(row.code_hash, code):
            return row
    return None


def _spend(db: Session, code_id: int, now: datetime) -> bool:
    """Mark the code used unless it is already: True for the one request that did."""
    result = db.execute(update(EmailCode).where(EmailCode.id == code_id, EmailCode.used_at.is_(None))
                        .values(used_at=now).execution_options(synchronize_session=False))
    return bool(getattr(result, "rowcount", 0) == 1)


def sign_in_with_code(judge: Judge, uow: UnitOfWork, address: str, code: str, new_password: str, *, client: str,
                      keeper_address: str) -> SignedIn:
    """Sign in with a mailed code; ``new_password`` (optional for an existing account) becomes the
    account's password.  A new address gets an account (never the judgekeeper's).  A refusal leaves
    the failed attempt added to ``db`` for the door to commit."""
    db = uow.session
    address = normal_address(address)
    now = judge.now()
    check_client(uow, client, now)
    check_code_tries(uow, address, client, now)
    account = db.scalar(select(GmAccount).where(GmAccount.email == address))
    if new_password and len(new_password) < MIN_PASSWORD:
        raise DomainError("short_password", f"Choose a password of at least {MIN_PASSWORD} characters.")
    if account is None and address == normal_address(keeper_address):
        raise DomainError("keeper_account", "The judgekeeper's account is made on the command line "
                                            "(judge dashboard account).")
    if account is None and not new_password:
        raise DomainError("short_password", "Choose a password for your new account "
                                            f"(at least {MIN_PASSWORD} characters).")
    row = _matching_code(db, address, _clean(code), judge)
    # The code is spent by one conditional UPDATE: of parallel requests with the same code, one
    # spends it, the others find it used (a 400, never a second session: issue 29 item 6).
    spent = row is not None and _spend(db, row.id, now)
    record_attempt(uow, address, client, spent, now)
    if not spent:
        raise DomainError("bad_code", "That code is wrong, used or expired: ask for a new one.")
    db.execute(update(EmailCode).where(EmailCode.email == address, EmailCode.used_at.is_(None))
               .values(used_at=now).execution_options(synchronize_session=False))  # every code of the address is spent
    created = account is None
    if account is None:
        account = GmAccount(email=address, password_hash=hash_password(new_password), created_at=now)
        db.add(account)
        db.flush()
    elif new_password:
        account.password_hash = hash_password(new_password)
        db.execute(delete(WebSession).where(WebSession.account_id == account.id))  # a reset ends the others
    account.proven_at = now
    signed = open_session(uow, account, keeper_address, now)
    return SignedIn(signed.principal, signed.session_token, signed.expires_at, created)
