"""GM accounts of the dashboard: sign-in (limited), browser sessions, and which games a GM runs.

A GM signs in with the address and password of a GM account.  The address and master password
of a game they run create the account (with that password) or link the game to it: every sign-in
links the not yet linked games whose master address and master password match what was typed.
The judgekeeper (an address from the settings) sees every game once signed in.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from sqlalchemy import delete, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from app.db.models import Game
from app.db.models_web import GmAccount, GmAccountGame, SignInAttempt, WebSession
from app.services.actor import Actor, Role
from app.services.context import Judge
from app.services.errors import DomainError
from app.services.security import hash_password, verify_password

__all__ = [
    "MAX_ATTEMPTS",
    "ATTEMPT_WINDOW",
    "GmPrincipal",
    "SignedIn",
    "close_session",
    "gm_actor",
    "linked_game_ids",
    "principal_for_session",
    "set_gm_password",
    "sign_in",
]

MAX_ATTEMPTS = 10  # failed sign-ins per address, and per client, within the window
ATTEMPT_WINDOW = timedelta(minutes=15)
SESSION_LIFETIME = timedelta(days=7)


@cache
def _dummy_hash() -> str:
    """Verified when no account and no game matches, so that unknown addresses take as long."""
    return hash_password(secrets.token_urlsafe(12))


@dataclass(frozen=True)
class GmPrincipal:
    """Who is signed in to a browser session."""

    account_id: int
    email: str
    keeper: bool
    csrf_token: str


@dataclass(frozen=True)
class SignedIn:
    """A successful sign-in: the new session's secret token (for the cookie) and what was linked."""

    principal: GmPrincipal
    session_token: str
    expires_at: datetime
    created_account: bool
    linked_games: tuple[str, ...]


def _normal(address: str) -> str:
    return address.strip().lower()


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _recent_failures(db: Session, column: InstrumentedAttribute[str], value: str, since: datetime) -> int:
    stmt = select(func.count()).select_from(SignInAttempt).where(
        column == value, SignInAttempt.at >= since, SignInAttempt.ok.is_(False))
    return int(db.scalar(stmt) or 0)


def _check_rate(db: Session, address: str, client: str, now: datetime) -> None:
    since = now - ATTEMPT_WINDOW
    db.execute(delete(SignInAttempt).where(SignInAttempt.at < since))
    if (_recent_failures(db, SignInAttempt.address, address, since) >= MAX_ATTEMPTS
            or _recent_failures(db, SignInAttempt.client, client, since) >= MAX_ATTEMPTS):
        minutes = int(ATTEMPT_WINDOW.total_seconds() // 60)
        raise DomainError("too_many_attempts",
                          f"Too many failed sign-ins: wait {minutes} minutes and try again.")


def _games_proven(db: Session, address: str, password: str, skip: set[int]) -> list[Game]:
    """The games run from ``address`` whose master password is ``password`` (not in ``skip``)."""
    games = db.scalars(select(Game).where(func.lower(Game.master_email) == address).order_by(Game.id))
    return [g for g in games if g.id not in skip and verify_password(g.master_password_hash, password)]


def linked_game_ids(db: Session, account_id: int) -> set[int]:
    return set(db.scalars(select(GmAccountGame.game_id).where(GmAccountGame.account_id == account_id)))


def _open_session(db: Session, account: GmAccount, keeper: bool, now: datetime) -> tuple[GmPrincipal, str, datetime]:
    db.execute(delete(WebSession).where(WebSession.expires_at <= now))
    token = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(32)
    expires = now + SESSION_LIFETIME
    db.add(WebSession(token_hash=_token_hash(token), account_id=account.id, csrf_token=csrf,
                      created_at=now, expires_at=expires))
    return GmPrincipal(account.id, account.email, keeper, csrf), token, expires


def sign_in(judge: Judge, db: Session, actor: Actor, password: str, *, client: str,
            keeper_address: str) -> SignedIn:
    """Check the password (account or a game's master password), link games, open a session.

    A refusal (``sign_in_failed``) leaves the failed attempt added to ``db``: the door commits it
    all the same, or the limit would never bite."""
    address = _normal(actor.address)
    client = client[:100]
    now = judge.now()
    _check_rate(db, address, client, now)
    account = db.scalar(select(GmAccount).where(GmAccount.email == address))
    linked = linked_game_ids(db, account.id) if account is not None else set()
    account_ok = account is not None and verify_password(account.password_hash, password)
    proven = _games_proven(db, address, password, linked) if address and password else []
    if account is None and not proven:
        verify_password(_dummy_hash(), password)
    ok = account_ok or bool(proven)
    db.add(SignInAttempt(address=address[:320], client=client, ok=ok, at=now))
    if not ok:
        db.flush()
        raise DomainError("sign_in_failed", "Unknown address or wrong password.")
    created = account is None
    if account is None:
        account = GmAccount(email=address, password_hash=hash_password(password), created_at=now)
        db.add(account)
        db.flush()
    for game in proven:
        db.add(GmAccountGame(account_id=account.id, game_id=game.id, linked_at=now))
    account.last_sign_in = now
    principal, token, expires = _open_session(db, account, address == _normal(keeper_address), now)
    db.flush()
    return SignedIn(principal, token, expires, created, tuple(g.name for g in proven))


def principal_for_session(judge: Judge, db: Session, token: str, *, keeper_address: str) -> GmPrincipal | None:
    """The GM signed in with this cookie token, or None (unknown or expired)."""
    if not token:
        return None
    row = db.scalar(select(WebSession).where(WebSession.token_hash == _token_hash(token)))
    if row is None or row.expires_at <= judge.now():
        return None
    account = db.get(GmAccount, row.account_id)
    if account is None:
        return None
    return GmPrincipal(account.id, account.email, account.email == _normal(keeper_address), row.csrf_token)


def close_session(db: Session, token: str) -> None:
    """Sign out: the session row goes, so the cookie is worthless even if kept."""
    db.execute(delete(WebSession).where(WebSession.token_hash == _token_hash(token)))


def gm_actor(db: Session, principal: GmPrincipal, game: Game) -> Actor:
    """The actor for ``game``: the judgekeeper, or the GM of a linked game it is still run from."""
    if principal.keeper:
        return Actor(principal.email, Role.KEEPER, game.id)
    linked = db.get(GmAccountGame, (principal.account_id, game.id)) is not None
    if not linked or _normal(game.master_email) != principal.email:
        raise DomainError("not_gm", f"You are not the GM of game '{game.name}'.")
    return Actor(principal.email, Role.GM, game.id)


def set_gm_password(judge: Judge, db: Session, actor: Actor, email: str, password: str) -> bool:
    """The judgekeeper (or the command line acting as one) creates an account or sets its password.
    Returns True when the account was created."""
    if actor.role is not Role.KEEPER:
        raise DomainError("not_keeper", "Only the judgekeeper may set a GM account's password.")
    address = _normal(email)
    if "@" not in address or len(password) < 8:
        raise DomainError("bad_account", "Give an address and a password of at least 8 characters.")
    account = db.scalar(select(GmAccount).where(GmAccount.email == address))
    if account is None:
        db.add(GmAccount(email=address, password_hash=hash_password(password), created_at=judge.now()))
        db.flush()
        return True
    account.password_hash = hash_password(password)
    db.execute(delete(WebSession).where(WebSession.account_id == account.id))
    return False
