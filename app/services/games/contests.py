"""Contested adjudications: a player contests a processed phase by mail (``CONTEST <phase> <text>``),
the GM is told, sees it on the dashboard, and answers it: ``upheld`` (the phase was corrected with an
override), ``rejected`` or just ``answered``.  The contesting player is mailed the GM's answer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Game, Phase, Player
from app.db.models_web import Contest
from app.db.statuses import ContestStatus, PhaseStatus
from app.services.errors import DomainError
from app.services.kernel.access import actor_game, book_of, power_seat, require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_master, mail_seat
from app.services.mailout.outbox import enqueue

__all__ = ["ContestFiled", "ContestView", "Verdict", "answer_contest", "check_open", "contest_phase", "contests_of",
           "open_contest_count"]

MAX_TEXT = 2000


class Verdict(str, Enum):
    UPHELD = "upheld"  # the GM corrected the phase
    REJECTED = "rejected"  # the adjudication stands
    ANSWERED = "answered"  # an answer without a verdict (a question, a remark)


@dataclass(frozen=True)
class ContestFiled:
    id: int
    game: str
    phase: str
    power: str


@dataclass(frozen=True)
class ContestView:
    id: int
    phase: str
    power: str  # the power's name
    address: str
    text: str
    status: str  # open | upheld | rejected | answered
    answer: str | None
    answered_by: str | None
    created_at: datetime
    answered_at: datetime | None

    @property
    def open(self) -> bool:
        return self.status == ContestStatus.OPEN


def _processed_phase(db: Session, game: Game, code: str) -> Phase:
    phase = db.scalar(select(Phase).where(Phase.game_id == game.id, func.upper(Phase.code) == code.strip().upper(),
                                          Phase.status == PhaseStatus.PROCESSED).order_by(Phase.seq.desc()))
    if phase is None:
        raise DomainError("no_phase", f"game '{game.name}' has no processed phase {code.strip().upper()} to contest")
    return phase


def contest_phase(judge: Judge, uow: UnitOfWork, actor: Actor, phase_code: str, text: str) -> ContestFiled:
    """A player contests the adjudication of a processed phase of their game; the GM is mailed."""
    db = uow.session
    seat = power_seat(uow, actor)
    game = actor_game(uow, actor)
    if not phase_code.strip():
        raise DomainError("no_phase", "say which phase you contest", contest=True)
    phase = _processed_phase(db, game, phase_code)
    body = text.strip()
    if not body:
        raise DomainError("no_text", "say what you contest", contest=True)
    if len(body) > MAX_TEXT:
        raise DomainError("too_long", f"a contest is at most {MAX_TEXT} characters")
    power = str(seat.power)
    row = Contest(game_id=game.id, phase=phase.code, power=power, address=seat.email, text=body, status=ContestStatus.OPEN)
    db.add(row)
    db.flush()
    name = book_of(judge, game).name(power)
    audit(uow, actor, game, "contest", contest=row.id, phase=phase.code, power=power, text=body)
    mail_master(uow, judge, game, f"Diplomacy contest {game.name} {phase.code}",
                f"{name} ({seat.email}) contests the adjudication of {phase.code} in game '{game.name}':\n\n"
                f"{body}\n\nReview and answer it on the dashboard, phase {phase.code}.\n", kind="contest")
    return ContestFiled(row.id, game.name, phase.code, power)


def _view(judge: Judge, game: Game, row: Contest) -> ContestView:
    return ContestView(row.id, row.phase, book_of(judge, game).name(row.power), row.address, row.text, row.status,
                       row.answer, row.answered_by, row.created_at, row.answered_at)


def contests_of(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, phase_code: str | None = None
                ) -> tuple[ContestView, ...]:
    """The contests of a game (of one phase), newest first; for its GM."""
    db = uow.session
    require_gm(actor, game)
    stmt = select(Contest).where(Contest.game_id == game.id)
    if phase_code is not None:
        stmt = stmt.where(func.upper(Contest.phase) == phase_code.upper())
    return tuple(_view(judge, game, row) for row in db.scalars(stmt.order_by(Contest.id.desc())))


def open_contest_count(uow: UnitOfWork, game: Game) -> int:
    db = uow.session
    return db.scalar(select(func.count()).select_from(Contest).where(
        Contest.game_id == game.id, Contest.status == ContestStatus.OPEN)) or 0


def _open_row(db: Session, game: Game, contest_id: int) -> Contest:
    row = db.get(Contest, contest_id)
    if row is None or row.game_id != game.id:
        raise DomainError("no_contest", f"game '{game.name}' has no contest {contest_id}")
    if row.status != ContestStatus.OPEN:
        raise DomainError("closed", f"contest {contest_id} was already answered ({row.status})")
    return row


def check_open(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, contest_id: int) -> None:
    """Refuse before anything is written when the contest a GM means to answer is not open."""
    db = uow.session
    require_gm(actor, game)
    _open_row(db, game, contest_id)


def answer_contest(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, contest_id: int, verdict: Verdict,
                   answer: str) -> ContestView:
    """The GM answers a contest: it is closed with ``verdict`` and the player is mailed the answer."""
    db = uow.session
    require_gm(actor, game)
    row = _open_row(db, game, contest_id)
    text = answer.strip()
    if not text:
        raise DomainError("no_answer", "write the answer the player will read")
    row.status, row.answer, row.answered_by, row.answered_at = verdict.value, text, actor.address, judge.now()
    audit(uow, actor, game, "contest_answer", contest=row.id, phase=row.phase, verdict=verdict.value,
          answer=text)
    words = {Verdict.UPHELD: "upheld: the phase was corrected", Verdict.REJECTED: "rejected: the adjudication stands",
             Verdict.ANSWERED: "answered"}[verdict]
    message = (f"Your contest of {row.phase} in game '{game.name}' was {words}.\n\n"
               f"You wrote:\n{row.text}\n\nThe GM answers:\n{text}\n")
    seat = db.scalar(select(Player).where(Player.game_id == game.id, Player.power == row.power))
    subject = f"Diplomacy contest {game.name} {row.phase}: {verdict.value}"
    if seat is not None and seat.email.lower() == row.address.lower():
        mail_seat(uow, judge, seat, subject, message, kind="contest")
    else:  # the power changed hands: the answer goes to who contested
        enqueue(uow, judge, to=row.address, subject=subject, text=message, kind="contest", game_id=game.id)
    return _view(judge, game, row)
