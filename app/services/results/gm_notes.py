"""The GM's notes for the next results of a game (``NOTE``, and the judge's line on a change of the
settings): rows of ``gm_notes``, printed once with the results and then deleted."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Table, bindparam, delete, select
from sqlalchemy.orm import Session

from app.db.base import utcnow
from app.db.models import Game, GmNote
from app.services.kernel.uow import UnitOfWork

__all__ = ["add_gm_note", "pending_gm_notes", "take_gm_notes"]


def add_gm_note(uow: UnitOfWork, game: Game, text: str) -> None:
    """A note for the next results of ``game``."""
    uow.session.add(GmNote(game_id=game.id, text=text, created_at=utcnow()))


def pending_gm_notes(db: Session, game: Game) -> list[str]:
    """The notes the next results of ``game`` print, the first written first."""
    return list(db.scalars(select(GmNote.text).where(GmNote.game_id == game.id).order_by(GmNote.id)))


def take_gm_notes(uow: UnitOfWork, game: Game) -> list[str]:
    """The notes the next results print, deleted: they are printed once.  One statement (a Core
    delete that returns them: no ORM bookkeeping), sent without flushing the turn being written (it
    is flushed once, with its results text); the notes this unit added and has not written yet are
    taken as they are, and those it has loaded leave the session with their rows."""
    db = uow.session
    unsaved = [row for row in db.new if isinstance(row, GmNote) and row.game_id == game.id]  # as added
    for row in unsaved:
        db.expunge(row)
    if uow.has_none("gm_notes", game.id):  # none when the turn locked the game
        return [row.text for row in unsaved]
    stored = db.connection().execute(_TAKE, {"game_id": game.id}).all()
    if stored:
        for row in [obj for obj in db.identity_map.values() if isinstance(obj, GmNote) and obj.game_id == game.id]:
            db.expunge(row)
    return [text for _id, text in sorted(stored)] + [row.text for row in unsaved]


_TABLE = cast(Table, GmNote.__table__)
_NOTES = _TABLE.c
_TAKE = delete(_TABLE).where(_NOTES.game_id == bindparam("game_id")).returning(_NOTES.id, _NOTES.text)
