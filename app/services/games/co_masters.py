"""Several GMs for one game, and a handover (issue 28.5; njudge's ``PROMOTE``, vDiplomacy's
co-moderators).

The game's master adds a co-GM by address (``add_co_master``; by mail ``PROMOTE address``).  The
address is mailed that it may help run the game: a co-GM runs it from the dashboard, signed in
with an account that has proven that address by a code mailed to it (``gm_accounts.gm_actor``);
adding an address proves nothing by itself.  A co-GM does everything the master does on the
dashboard (``kernel.access.require_gm`` admits both), except the GMs' own business, which stays
the master's (``require_master``): adding and removing co-GMs, and handing the game over.

``hand_over``: the master gives the game to one of its co-GMs whose account has proven its
address.  The co-GM becomes the master of record (the game's mail goes to that address; a new
master password, mailed to it, signs on by mail; the old one signs on no more), and the old
master stays a co-GM until removed.  The board is told.  Every step is audited with who did it.

Limits (the judge mails a third party only so often): at most ``MAX_CO_MASTERS`` co-GMs a game,
and ``ADDS_PER_DAY`` additions a game in any 24 hours.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.db.models import AuditEntry, Game
from app.db.models_web import CoMaster, GmAccount, GmAccountGame
from app.services.errors import DomainError
from app.services.kernel.access import actor_game, require_gm, require_master
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.security import hash_password, new_token
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.addresses import check_player_address
from app.services.mailout.notify import mail_game
from app.services.mailout.outbox import enqueue

__all__ = ["ADDS_PER_DAY", "MAX_CO_MASTERS", "CoMasters", "HandedOver", "add_co_master", "co_master_games",
           "co_masters_of", "hand_over", "is_co_master", "remove_co_master"]

MAX_CO_MASTERS = 5
ADDS_PER_DAY = 5


@dataclass(frozen=True)
class CoMasters:
    master: str
    co_masters: tuple[tuple[str, bool], ...]  # (address, whether its dashboard account has proven it)


@dataclass(frozen=True)
class HandedOver:
    game: str
    old_master: str
    new_master: str


def _normal(address: str) -> str:
    return address.strip().lower()


def is_co_master(uow: UnitOfWork, game: Game, address: str) -> bool:
    db = uow.session
    return db.scalar(select(CoMaster.id).where(CoMaster.game_id == game.id,
                                               CoMaster.email == _normal(address))) is not None


def co_master_games(uow: UnitOfWork, address: str) -> set[int]:
    """The games ``address`` is a co-GM of."""
    db = uow.session
    return set(db.scalars(select(CoMaster.game_id).where(CoMaster.email == _normal(address))))


def _proven(db: Session, address: str) -> bool:
    return db.scalar(select(GmAccount.id).where(GmAccount.email == _normal(address),
                                                GmAccount.proven_at.is_not(None))) is not None


def co_masters_of(uow: UnitOfWork, actor: Actor, game: Game) -> CoMasters:
    """The game's master and co-GMs, for its GMs."""
    db = uow.session
    require_gm(actor, game)
    rows = db.scalars(select(CoMaster).where(CoMaster.game_id == game.id).order_by(CoMaster.id))
    return CoMasters(game.master_email, tuple((row.email, _proven(db, row.email)) for row in rows))


def add_co_master(judge: Judge, uow: UnitOfWork, actor: Actor, address: str) -> str:
    """(The master) ``address`` may help run the game; it is mailed so.  Returns the address."""
    db = uow.session
    game = actor_game(uow, actor)
    require_master(actor, game)
    address = check_player_address(address, judge.settings.judge_address)
    if address == _normal(game.master_email):
        raise DomainError("already_gm", f"{address} is the master of '{game.name}'", address=address)
    if is_co_master(uow, game, address):
        raise DomainError("already_gm", f"{address} is a co-GM of '{game.name}' already", address=address)
    count = db.scalar(select(func.count()).select_from(CoMaster).where(CoMaster.game_id == game.id)) or 0
    if count >= MAX_CO_MASTERS:
        raise DomainError("too_many_co_masters", f"a game has at most {MAX_CO_MASTERS} co-GMs",
                          limit=MAX_CO_MASTERS)
    now = judge.now()
    added = db.scalar(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.game_id == game.id, AuditEntry.action == "co_master_add",
        AuditEntry.created_at > now - timedelta(days=1))) or 0
    if added >= ADDS_PER_DAY:
        raise DomainError("too_many_co_masters", f"at most {ADDS_PER_DAY} co-GMs are added to a game in a day",
                          limit=ADDS_PER_DAY)
    db.add(CoMaster(game_id=game.id, email=address, added_by=actor.address, added_at=now))
    uow.gm_mail.clear()  # who gets the GM's mail changed (mailout.notify reads it once a unit)
    audit(uow, actor, game, "co_master_add", at=now, address=address)
    subject, body = judge.templates.notice("co_master_added", game=game.name, master=game.master_email)
    enqueue(uow, judge, to=address, subject=subject, text=body, kind="notice", game_id=game.id)
    return address


def remove_co_master(judge: Judge, uow: UnitOfWork, actor: Actor, address: str) -> str:
    """(The master) ``address`` is no longer a co-GM of the game; it is told."""
    db = uow.session
    game = actor_game(uow, actor)
    require_master(actor, game)
    address = _normal(address)
    if not is_co_master(uow, game, address):
        raise DomainError("no_co_master", f"{address} is no co-GM of '{game.name}'", address=address)
    db.execute(delete(CoMaster).where(CoMaster.game_id == game.id, CoMaster.email == address))
    uow.gm_mail.clear()  # who gets the GM's mail changed (mailout.notify reads it once a unit)
    audit(uow, actor, game, "co_master_remove", address=address)
    subject, body = judge.templates.notice("co_master_removed", game=game.name)
    enqueue(uow, judge, to=address, subject=subject, text=body, kind="notice", game_id=game.id)
    return address


def hand_over(judge: Judge, uow: UnitOfWork, actor: Actor, address: str) -> HandedOver:
    """(The master) the game to its co-GM ``address``, whose dashboard account proved the address."""
    db = uow.session
    game = actor_game(uow, actor)
    require_master(actor, game)
    address = _normal(address)
    if not is_co_master(uow, game, address):
        raise DomainError("no_co_master", f"{address} is no co-GM of '{game.name}': add it as a co-GM first",
                          address=address)
    if not _proven(db, address):
        raise DomainError("unproven", f"{address} has not proven its address yet: it signs in to the dashboard "
                                      "once with a code mailed to it, then the game can be handed over",
                          address=address)
    old = _normal(game.master_email)
    password = new_token()[:10]
    game.master_email = address
    game.master_password_hash = hash_password(password)
    db.execute(delete(CoMaster).where(CoMaster.game_id == game.id, CoMaster.email == address))
    db.add(CoMaster(game_id=game.id, email=old, added_by=actor.address, added_at=judge.now()))
    uow.gm_mail.clear()  # who gets the GM's mail changed (mailout.notify reads it once a unit)
    account = db.scalar(select(GmAccount).where(GmAccount.email == address))
    if account is not None and db.get(GmAccountGame, (account.id, game.id)) is None:
        db.add(GmAccountGame(account_id=account.id, game_id=game.id, linked_at=judge.now()))
    audit(uow, actor, game, "handover", old_master=old, new_master=address)
    subject, body = judge.templates.notice("handed_over_you", game=game.name, old=old, password=password)
    enqueue(uow, judge, to=address, subject=subject, text=body, kind="notice", game_id=game.id)
    mail_game(uow, judge, game, *judge.templates.notice("handed_over", game=game.name, master=address),
              kind="notice", master=False)
    return HandedOver(game.name, old, address)
