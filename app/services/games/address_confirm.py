"""An address change that waited for the new address's confirmation (issue 29 item 1) takes effect.

``SET ADDRESS``, ``REPLACE`` and ``DOD3 SEAT`` (and the dashboard's *Replace* and *Seat*) that point a
seat or a game at another address than the actor's own only mail that address one confirmation
(``app.services.mailout.address_confirmation.ask_address_confirmation``); when it answers, the change is made
here, on the seat or game as it is then.
"""

from __future__ import annotations

from app.db.models import Game, Player
from app.db.statuses import GameStatus, SeatStatus
from app.services.dod3.setup import seat_holder
from app.services.games.gm import seat_replacement
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.seats.confirmations import Confirmed

__all__ = ["apply_address_change"]

_GONE = "Nothing changed: the seat (or game) it was for is no longer there, or no longer open."


def apply_address_change(judge: Judge, uow: UnitOfWork, confirmed: Confirmed) -> str:
    """Make the confirmed change; what the answer to the confirming address says."""
    db = uow.session
    game = db.get(Game, confirmed.game_id) if confirmed.game_id is not None else None
    seat = db.get(Player, confirmed.player_id) if confirmed.player_id is not None else None
    address = confirmed.address
    if game is None or game.status in (GameStatus.FINISHED, GameStatus.TERMINATED):
        return _GONE
    if confirmed.what == "master_address":
        game.master_email = address
        audit(uow, address, game, "address_confirmed", what=confirmed.what)
        return f"Confirmed: you are now the address of record of the master of game '{game.name}'."
    if seat is None or seat.game_id != game.id:
        if confirmed.what == "dod3_seat" and confirmed.detail:
            seats = seat_holder(uow, game, confirmed.detail, address, "", password_hash=confirmed.secret)
            audit(uow, address, game, "dod3_seat", player=confirmed.detail)
            return (f"Confirmed: you are seated in game '{game.name}' as {confirmed.detail} "
                    f"({', '.join(s.power or '?' for s in seats)}).  Your password is the one the game master "
                    f"chose: ask the game master.")
        return _GONE
    if confirmed.what == "set_address":
        if seat.status in (SeatStatus.RESIGNED, SeatStatus.ABANDONED):
            return _GONE
        seat.email = address
        audit(uow, address, game, "address_confirmed", what=confirmed.what)
        return f"Confirmed: the judge now writes to this address for your seat in game '{game.name}'."
    if confirmed.what == "replace":
        replaced = seat_replacement(judge, uow, game, seat, address, address, password_hash=confirmed.secret)
        return f"Confirmed: you now play {replaced.power_name} in game '{game.name}'."
    return _GONE
