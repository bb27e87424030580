"""Small query helpers. They never commit: the service that calls them owns the transaction."""

from __future__ import annotations

from sqlalchemy import delete, func, inspect, select
from sqlalchemy.orm import Session

from app.db.models import Game, OrderRow, Phase, Player, Press
from app.db.statuses import PhaseStatus

__all__ = [
    "clear_orders",
    "game_by_name",
    "lock_game",
    "open_phase",
    "open_phase_of",
    "orders_for",
    "phases_of",
    "player_by_token",
    "seat_for_power",
    "seats_of",
]


def game_by_name(session: Session, name: str) -> Game | None:
    return session.scalar(select(Game).where(func.lower(Game.name) == name.lower()))


def lock_game(session: Session, game_id: int, *, skip_locked: bool = False) -> Game | None:
    """The game row, locked for this transaction (FOR UPDATE on PostgreSQL, a no-op on SQLite)."""
    stmt = select(Game).where(Game.id == game_id).with_for_update(skip_locked=skip_locked)
    return session.scalar(stmt.execution_options(populate_existing=True))


def open_phase(session: Session, game_id: int) -> Phase | None:
    return session.scalar(
        select(Phase).where(Phase.game_id == game_id, Phase.status == PhaseStatus.OPEN).order_by(Phase.seq.desc())
    )


def open_phase_of(session: Session, game: Game) -> Phase | None:
    """`open_phase`, remembered for the rest of this transaction while the game stays where
    it was (the same phase code and version: processing a turn or rolling one back changes
    the version) and the phase row is still loaded and open. One mail asks for its game's
    phase several times; the database is asked once.  The cache is the unit of work's
    (``app.services.kernel.uow``: it lends it to its session); a bare session keeps its own."""
    remembered: dict[int, tuple[object, int, str | None, Phase]] = session.info.setdefault("open_phase_of", {})
    transaction = session.get_transaction()
    known = remembered.get(game.id)
    if known is not None:
        known_transaction, version, code, kept = known
        state = inspect(kept)
        if (known_transaction is transaction and transaction is not None and version == game.version
                and code == game.phase and state.persistent and "status" not in state.unloaded
                and kept.status == PhaseStatus.OPEN):
            return kept
    phase = open_phase(session, game.id)
    if phase is not None:
        remembered[game.id] = (session.get_transaction(), game.version, game.phase, phase)
    return phase


def phases_of(session: Session, game_id: int, *, processed_only: bool = True) -> list[Phase]:
    stmt = select(Phase).where(Phase.game_id == game_id)
    if processed_only:
        stmt = stmt.where(Phase.status == PhaseStatus.PROCESSED)
    else:
        stmt = stmt.where(Phase.status != PhaseStatus.ROLLED_BACK)
    return list(session.scalars(stmt.order_by(Phase.seq)))


def seats_of(session: Session, game_id: int) -> list[Player]:
    return list(session.scalars(select(Player).where(Player.game_id == game_id).order_by(Player.id)))


def seat_for_power(session: Session, game_id: int, power: str) -> Player | None:
    return session.scalar(select(Player).where(Player.game_id == game_id, Player.power == power))


def player_by_token(session: Session, token: str) -> Player | None:
    return session.scalar(select(Player).where(Player.reply_token == token))


def orders_for(session: Session, game_id: int, phase: str, power: str | None = None) -> list[OrderRow]:
    stmt = select(OrderRow).where(OrderRow.game_id == game_id, OrderRow.phase == phase)
    if power is not None:
        stmt = stmt.where(OrderRow.power == power)
    return list(session.scalars(stmt.order_by(OrderRow.power, OrderRow.id)))


def clear_orders(session: Session, game_id: int, phase: str, power: str | None = None) -> None:
    stmt = delete(OrderRow).where(OrderRow.game_id == game_id, OrderRow.phase == phase)
    if power is not None:
        stmt = stmt.where(OrderRow.power == power)
    session.execute(stmt)


def unpublished_press(session: Session, game_id: int) -> list[Press]:
    return list(
        session.scalars(
            select(Press)
            .where(Press.game_id == game_id, Press.postal.is_(True), Press.published.is_(False))
            .order_by(Press.id)
        )
    )
