"""What a rollback needs to undo a turn without side effects (issue 8.13).

- ``phases.opening``: the seats (status, WAIT, misses, draw, who plays) and the game's settings
  as they were when the phase opened;
- ``phases.advance_orders``: the orders given in advance for later phases, as they were when the
  phase was processed (opening the next phase reads them, so they would be lost).  The orders of
  the phases processed before are history: neither kept here nor touched by a rollback.

``restore`` puts them back.  A plain rollback restores what the turns changed about the seats
(status, WAIT, misses, draw votes) of seats still held by the same player; ``FULL`` (DPjudge's
reading: "also rolls back rules, players and settings") also gives each seat back to the player
who held it then and restores the game's settings and press rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from app.db.models import Game, OrderRow, Phase
from app.db.statuses import PhaseStatus, SeatRole
from app.services.kernel.uow import UnitOfWork

__all__ = ["past_phase_codes", "restore", "take_advance_orders", "take_opening"]

_TURN_FIELDS = ("status", "wait", "misses", "missed_in_row", "draw", "concede")
_PLAYER_FIELDS = ("email", "password_hash", "reply_token")


def take_opening(game: Game, phase: Phase) -> None:
    """Keep the seats and settings as they are when ``phase`` opens."""
    seats: dict[str, dict[str, Any]] = {}
    for seat in game.players:
        if seat.role != SeatRole.PLAYER or seat.id is None:
            continue
        seats[str(seat.id)] = {name: getattr(seat, name) for name in _TURN_FIELDS + _PLAYER_FIELDS}
    phase.opening = {"seats": seats, "settings": dict(game.settings or {}), "press": game.press}


def past_phase_codes(uow: UnitOfWork, game: Game, before_seq: int | None = None) -> set[str]:
    """The codes of the phases processed (before ``before_seq``): their orders are history, never
    orders in advance (issue 22.1)."""
    db = uow.session
    stmt = select(Phase.code).where(Phase.game_id == game.id, Phase.status == PhaseStatus.PROCESSED)
    if before_seq is not None:
        stmt = stmt.where(Phase.seq < before_seq)
    return set(db.scalars(stmt))


def take_advance_orders(uow: UnitOfWork, game: Game, phase: Phase,
                        given: Sequence[OrderRow] | None = None) -> list[OrderRow]:
    """Keep the orders given in advance for phases after ``phase`` (it is being processed); the
    orders of the phases processed before it are history and stay where they are.  ``given``: those
    orders, when the caller has just read them (``collect_orders``); otherwise one statement reads
    them.  Returns them: the next phase opens with its own."""
    db = uow.session
    if given is not None:
        rows = list(given)
    else:
        past = select(Phase.code).where(Phase.game_id == game.id, Phase.status == PhaseStatus.PROCESSED,
                                        Phase.seq < phase.seq)
        rows = list(db.scalars(select(OrderRow).where(OrderRow.game_id == game.id, OrderRow.phase != phase.code,
                                                      OrderRow.phase.not_in(past))
                               .order_by(OrderRow.id)))
    phase.advance_orders = [{"phase": r.phase, "power": r.power, "unit": r.unit, "line": r.line} for r in rows]
    return rows


def restore(uow: UnitOfWork, game: Game, target: Phase, *, full: bool) -> None:
    """Put back the advance orders and the seats as they were at ``target`` (see the module doc)."""
    db = uow.session
    if target.advance_orders is not None:
        past = past_phase_codes(uow, game, target.seq) | {target.code}
        for row in db.scalars(select(OrderRow).where(OrderRow.game_id == game.id, OrderRow.phase.not_in(past))):
            db.delete(row)
        db.flush()
        for item in target.advance_orders:
            if str(item["phase"]) in past:
                continue  # a snapshot taken before issue 22.1 also held the history
            db.add(OrderRow(game_id=game.id, phase=str(item["phase"]), power=str(item["power"]),
                            unit=str(item["unit"]), line=str(item["line"]), checked=False))
    opening = target.opening or {}
    seats: dict[str, dict[str, Any]] = opening.get("seats") or {}
    for seat in game.players:
        then = seats.get(str(seat.id))
        if then is None:
            continue
        if full:
            for name in _PLAYER_FIELDS:
                setattr(seat, name, then[name])
        if seat.email.lower() != str(then["email"]).lower():
            continue  # a new player took the seat since: his seat stays as it is
        for name in _TURN_FIELDS:
            if name in then:
                setattr(seat, name, then[name])
    if full and "settings" in opening:
        game.settings = dict(opening["settings"])
        game.press = str(opening.get("press") or game.press)
    db.flush()
