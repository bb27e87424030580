"""Civil disorder by the GM's hand, and revival (issue 28.7; DPjudge's ``DUMMY`` and ``REVIVE``).

``dummy``: the GM puts a played power into civil disorder now.  Its units hold, its retreats
disband and its builds are waived, as for any power in civil disorder (``SeatStatus.DUMMY``:
nobody at the board waits for it), its orders for the open phase are dropped and its WAIT and draw
vote cleared, and its player can no longer act for it nor is mailed: the seat's password and
personal reply address stop working (the address stays on record, so that the GM can give the
power back).  It is not open for takeover (DPjudge's dummy is no vacancy): the GM revives it or
gives it to a new player (``REPLACE``).  The board, and the player, are told.

``revive``: the GM gives a power in civil disorder, abandoned or resigned back to its player of
record: the seat is active again, with a new password mailed to the player with a new personal
reply address (as DPjudge's ``REVIVE`` without a password); the board is told.  To give it to
someone else, the GM uses ``REPLACE``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete

from app.db import queries
from app.db.models import Game, OrderRow, Player
from app.db.statuses import RUNNING, SeatStatus
from app.services.errors import DomainError
from app.services.kernel.access import book_of, gm_game
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.security import hash_password, new_token
from app.services.kernel.uow import OrdersChanged, UnitOfWork
from app.services.mailout.notify import mail_game, mail_seat
from app.services.mailout.outbox import enqueue
from app.services.seats.takeover import welcome_text

__all__ = ["DUMMIED", "REVIVABLE", "PowerTold", "dummy", "revive"]

DUMMIED = SeatStatus.DUMMY
REVIVABLE = (SeatStatus.DUMMY, SeatStatus.CD, SeatStatus.ABANDONED, SeatStatus.RESIGNED)


@dataclass(frozen=True)
class PowerTold:
    power_name: str
    address: str  # the player of record
    mails: int


def _seat(judge: Judge, uow: UnitOfWork, actor: Actor, power: str) -> tuple[Game, Player, str]:
    db = uow.session
    game = gm_game(uow, actor)
    if game.status not in RUNNING:
        raise DomainError("not_running", f"game '{game.name}' is {game.status}")
    book = book_of(judge, game)
    pid = book.find(power)
    seat = queries.seat_for_power(db, game.id, pid) if pid else None
    if seat is None:
        raise DomainError("unknown_power", f"no power '{power}' with a player in game '{game.name}'", power=power)
    return game, seat, book.name(pid or "")


def dummy(judge: Judge, uow: UnitOfWork, actor: Actor, power: str) -> PowerTold:
    """(GM) ``power`` into civil disorder now; its player can no longer act for it."""
    db = uow.session
    game, seat, name = _seat(judge, uow, actor, power)
    if seat.status not in (SeatStatus.ACTIVE, SeatStatus.ABSENT):
        raise DomainError("not_played", f"{name} is not played now ({seat.status}): nothing to put into civil "
                                        "disorder", power=name, status=seat.status)
    seat.status = DUMMIED
    seat.wait = False
    seat.draw = None
    seat.concede = None
    seat.password_hash = hash_password(new_token())  # nobody knows it: the old password signs on no more
    seat.reply_token = new_token()  # nor does the personal reply address
    phase = queries.open_phase(db, game.id)
    if phase is not None:
        db.execute(delete(OrderRow).where(OrderRow.game_id == game.id, OrderRow.phase == phase.code,
                                          OrderRow.power == seat.power))
    uow.record(OrdersChanged(game.id))
    audit(uow, actor, game, "dummy", power=seat.power, player=seat.email)
    subject, body = judge.templates.notice("dummied_you", game=game.name, power=name)
    enqueue(uow, judge, to=seat.email, subject=subject, text=body, kind="notice", game_id=game.id)  # no reply address
    mails = 1 + mail_game(uow, judge, game, *judge.templates.notice("dummied", game=game.name, power=name),
                          kind="notice")
    return PowerTold(name, seat.email, mails)


def revive(judge: Judge, uow: UnitOfWork, actor: Actor, power: str) -> PowerTold:
    """(GM) ``power`` back to its player of record, with a new password mailed to them."""
    game, seat, name = _seat(judge, uow, actor, power)
    if seat.status not in REVIVABLE:
        raise DomainError("not_revivable", f"{name} is not in civil disorder, abandoned or resigned: nothing to "
                                           "revive", power=name, status=seat.status)
    password = new_token()[:10]
    seat.status = SeatStatus.ACTIVE
    seat.missed_in_row = 0
    seat.password_hash = hash_password(password)
    seat.reply_token = new_token()
    uow.record(OrdersChanged(game.id))
    audit(uow, actor, game, "revive", power=seat.power, player=seat.email)
    subject, body = judge.templates.notice("revived_you", game=game.name, power=name, password=password)
    mail_seat(uow, judge, seat, subject, body + welcome_text(judge, uow, game, seat, name), kind="start")
    mails = 1 + mail_game(uow, judge, game, *judge.templates.notice("revived", game=game.name, power=name),
                          kind="notice", skip=seat)
    return PowerTold(name, seat.email, mails)
