"""GM accounts of the dashboard: sign-in (limited), browser sessions, and which games a GM runs.

An account is proven by control of its mailbox, never by a password a mail could have set: it is
made by a one-time code mailed to the address (``gm_signup``), or by the judgekeeper on the
command line (``set_gm_password``, ``judge dashboard account``).  The judgekeeper's own account (an
address from the settings, it sees every game) is made only there.  A GM signs in with the
account's password, or with a code mailed to the address (``gm_signup``).  A game is linked to an
account by its signed-in GM with the game's master password (``link_game``), and only when the
game is run from the account's address.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.db.models import Game
from app.db.models_web import GmAccount, GmAccountGame, WebSession
from app.services.errors import DomainError
from app.services.games.co_masters import is_co_master
from app.services.games.signin_limits import check_client, check_password_tries, record_attempt
from app.services.kernel.access import not_gm
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.security import hash_password, verify_password
from app.services.kernel.uow import UnitOfWork

__all__ = [
    "MIN_PASSWORD",
    "GmPrincipal",
    "SignedIn",
    "close_session",
    "gm_actor",
    "has_password",
    "keeper_link_game",
    "link_game",
    "linked_game_ids",
    "normal_address",
    "open_session",
    "principal_for_session",
    "set_gm_password",
    "sign_in",
]

MIN_PASSWORD = 8
SESSION_LIFETIME = timedelta(days=7)


@cache
def _dummy_hash() -> str:
    """Verified when no account matches, so that unknown addresses take as long."""
    return hash_password(secrets.token_urlsafe(12))


@dataclass(frozen=True)
class GmPrincipal:
    """Who is signed in to a browser session; ``proven``: a code mailed to the address was used."""

    account_id: int
    email: str
    keeper: bool
    csrf_token: str
    proven: bool = False


@dataclass(frozen=True)
class SignedIn:
    """A successful sign-in: the new session's secret token (for the cookie)."""

    principal: GmPrincipal
    session_token: str
    expires_at: datetime
    created_account: bool


def normal_address(address: str) -> str:
    return address.strip().lower()


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def linked_game_ids(uow: UnitOfWork, account_id: int) -> set[int]:
    db = uow.session
    return set(db.scalars(select(GmAccountGame.game_id).where(GmAccountGame.account_id == account_id)))


def open_session(uow: UnitOfWork, account: GmAccount, keeper_address: str, now: datetime) -> SignedIn:
    """A new browser session for ``account`` (expired sessions of anyone are dropped)."""
    db = uow.session
    db.execute(delete(WebSession).where(WebSession.expires_at <= now))
    token = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(32)
    expires = now + SESSION_LIFETIME
    db.add(WebSession(token_hash=_token_hash(token), account_id=account.id, csrf_token=csrf,
                      created_at=now, expires_at=expires))
    account.last_sign_in = now
    principal = GmPrincipal(account.id, account.email, account.email == normal_address(keeper_address), csrf,
                            account.proven_at is not None)
    db.flush()
    return SignedIn(principal, token, expires, False)


def sign_in(judge: Judge, uow: UnitOfWork, actor: Actor, password: str, *, client: str,
            keeper_address: str) -> SignedIn:
    """Check the account's password and open a session.  A game's master password is no key here.

    A refusal (``sign_in_failed``) leaves the failed attempt added to ``db``: the door commits it
    all the same, or the limit would never bite."""
    db = uow.session
    address = normal_address(actor.address)
    now = judge.now()
    check_client(uow, client, now)
    check_password_tries(uow, address, now)
    account = db.scalar(select(GmAccount).where(GmAccount.email == address))
    if account is None or not account.password_hash:
        verify_password(_dummy_hash(), password)
        ok = False
    else:
        ok = verify_password(account.password_hash, password)
    record_attempt(uow, address, client, ok, now)
    if not ok or account is None:
        raise DomainError("sign_in_failed", "Unknown address or wrong password.")
    return open_session(uow, account, keeper_address, now)


def principal_for_session(judge: Judge, uow: UnitOfWork, token: str, *, keeper_address: str) -> GmPrincipal | None:
    """The GM signed in with this cookie token, or None (unknown or expired)."""
    db = uow.session
    if not token:
        return None
    row = db.scalar(select(WebSession).where(WebSession.token_hash == _token_hash(token)))
    if row is None or row.expires_at <= judge.now():
        return None
    account = db.get(GmAccount, row.account_id)
    if account is None:
        return None
    return GmPrincipal(account.id, account.email, account.email == normal_address(keeper_address), row.csrf_token,
                       account.proven_at is not None)


def close_session(uow: UnitOfWork, token: str) -> None:
    """Sign out: the session row goes, so the cookie is worthless even if kept."""
    db = uow.session
    db.execute(delete(WebSession).where(WebSession.token_hash == _token_hash(token)))


def gm_actor(uow: UnitOfWork, principal: GmPrincipal, game: Game) -> Actor:
    """The actor for ``game``: the judgekeeper, the GM of a linked game it is still run from, or a
    co-GM of it whose account proved its address by a mailed code (``co_masters``)."""
    db = uow.session
    if principal.keeper:
        return Actor(principal.email, Role.KEEPER, game.id, proven=principal.proven)
    linked = db.get(GmAccountGame, (principal.account_id, game.id)) is not None
    if linked and normal_address(game.master_email) == principal.email:
        return Actor(principal.email, Role.GM, game.id, proven=principal.proven)
    if principal.proven and is_co_master(uow, game, principal.email):
        return Actor(principal.email, Role.GM, game.id, co_master=True, proven=True)
    raise not_gm(game.name)


def set_gm_password(judge: Judge, uow: UnitOfWork, actor: Actor, email: str, password: str, *,
                    min_length: int = MIN_PASSWORD) -> bool:
    """The judgekeeper (or the command line acting as one) creates an account or sets its password.
    Returns True when the account was created.  (``min_length``: the demo's 'secret' is shorter.)"""
    db = uow.session
    if actor.role is not Role.KEEPER:
        raise DomainError("not_keeper", "Only the judgekeeper may set a GM account's password.")
    address = normal_address(email)
    if "@" not in address or len(password) < min_length:
        raise DomainError("bad_account", f"Give an address and a password of at least {min_length} characters.")
    account = db.scalar(select(GmAccount).where(GmAccount.email == address))
    if account is None:
        db.add(GmAccount(email=address, password_hash=hash_password(password), created_at=judge.now()))
        db.flush()
        return True
    account.password_hash = hash_password(password)
    db.execute(delete(WebSession).where(WebSession.account_id == account.id))
    return False


def _link(db: Session, account: GmAccount, game: Game, now: datetime) -> bool:
    if db.get(GmAccountGame, (account.id, game.id)) is not None:
        return False
    db.add(GmAccountGame(account_id=account.id, game_id=game.id, linked_at=now))
    db.flush()
    return True


def link_game(judge: Judge, uow: UnitOfWork, principal: GmPrincipal, name: str, master_password: str, *,
              client: str) -> bool:
    """The signed-in GM links a game run from the account's address, showing its master password.
    Returns False when it was linked already.  Wrong passwords count like failed sign-ins."""
    db = uow.session
    now = judge.now()
    check_client(uow, client, now)
    key = f"link:{principal.email}"
    check_password_tries(uow, key, now)
    account = db.get(GmAccount, principal.account_id)
    game = db.scalar(select(Game).where(func.lower(Game.name) == name.strip().lower()))
    if account is None or game is None or normal_address(game.master_email) != account.email:
        raise DomainError("cannot_link", f"No game '{name.strip()}' is run from {principal.email}: a game is "
                                         "linked only to the account of its master address.")
    ok = verify_password(game.master_password_hash, master_password)
    record_attempt(uow, key, client, ok, now)
    if not ok:
        raise DomainError("wrong_password", f"That is not the master password of game '{game.name}'.")
    return _link(db, account, game, now)


def has_password(uow: UnitOfWork, email: str) -> bool:
    """Whether the account of ``email`` exists and has a password (accounts from before mailbox
    proof have none until a code or the command line sets one)."""
    db = uow.session
    account = db.scalar(select(GmAccount).where(GmAccount.email == normal_address(email)))
    return account is not None and bool(account.password_hash)


def keeper_link_game(judge: Judge, uow: UnitOfWork, actor: Actor, email: str, name: str) -> None:
    """The judgekeeper (the command line: the demo set-up) links a game to an account."""
    db = uow.session
    if actor.role is not Role.KEEPER:
        raise DomainError("not_keeper", "Only the judgekeeper may link a game to an account.")
    account = db.scalar(select(GmAccount).where(GmAccount.email == normal_address(email)))
    game = db.scalar(select(Game).where(Game.name == name))
    if account is None or game is None:
        raise DomainError("no_such", "There is no such account or game.")
    _link(db, account, game, judge.now())
