"""Civil disorder and abandonment over the course of a game (issue 22.3, 28.13).

- A missed deadline is counted by the turn that processes the phase after its deadline, whoever
  processes it (the scheduler at the deadline or at the end of the grace, or the GM's ``PROCESS``
  during the grace period: njudge's PROCESS counts the miss too), and the game's NMR policy applies
  to it there and then (``miss_consequence``, announced by ``announce_missed_deadlines``): ``cd`` (and ``excuse:N`` once no miss is left to
  excuse) puts the power in civil disorder, ``dismiss`` dismisses its player; ``hold`` and ``wait``
  change nothing but the count.  A miss is so either excused (``excuse:N``: the deadline moves, nothing
  is processed) or counted with its consequence, never counted and left without one.

- A power that goes to civil disorder, and a power abandoned (``takeover.is_vacant``: missed
  deadlines in a row, dismissed, or left waiting for a replacement) are announced to the GM, the
  players and the observers; an abandoned power with a call for a replacement (njudge announces
  an abandoned position).
- A phase in which only powers without a player at the board (civil disorder, abandoned,
  resigned) have anything to order is due at once: nobody is waited for.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from app.db.models import Game, OrderRow, Phase, Player
from app.db.statuses import SeatStatus
from app.services.kernel.access import book_of
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_game, mail_seat
from app.services.orders.submit import seat_statuses
from app.services.ruleset.options import GameOptions, options_of
from app.services.seats.takeover import abandon_after, announce_vacancy

__all__ = ["AT_THE_BOARD", "announce_abandoned", "announce_civil_disorder", "announce_missed_deadlines", "due_at_once",
           "miss_consequence", "reached_abandonment", "tell_eliminated"]

AT_THE_BOARD = (SeatStatus.ACTIVE, SeatStatus.ABSENT)  # a player who sends orders: the phase waits for him


def announce_civil_disorder(uow: UnitOfWork, judge: Judge, game: Game, seats: Sequence[Player], phase_code: str) -> None:
    """Tell everyone which powers went to civil disorder for want of orders in ``phase_code``."""
    if not seats:
        return
    book = book_of(judge, game)
    names = [book.name(s.power or "") for s in seats]
    misses = abandon_after(options_of(game))
    mail_game(uow, judge, game, f"Diplomacy game {game.name}: {', '.join(names)} in civil disorder",
              f"No orders from {', '.join(names)} for {phase_code} in game '{game.name}':\n"
              f"{'that power is' if len(names) == 1 else 'those powers are'} now in civil disorder "
              f"(units hold, retreats disband, builds are waived)\n"
              f"until {'its player orders' if len(names) == 1 else 'their players order'} again.  "
              f"After {misses} missed deadlines in a row a power is open for takeover.\n", kind="notice")


def miss_consequence(seat: Player, options: GameOptions) -> SeatStatus | None:
    """What the NMR policy makes of a power's missed deadline, just counted: civil disorder (``cd``, and
    ``excuse:N`` once no miss is left to excuse), dismissal (``dismiss``), or nothing but the count
    (``hold``, ``wait``; a power already in civil disorder or gone)."""
    if seat.status not in AT_THE_BOARD:
        return None
    if options.nmr == "dismiss":
        return SeatStatus.RESIGNED
    if options.nmr == "cd" or options.nmr.startswith("excuse:"):
        return SeatStatus.CD
    return None


def announce_missed_deadlines(uow: UnitOfWork, judge: Judge, game: Game, disordered: Sequence[Player],
                              dismissed: Sequence[Player], abandoned: Sequence[Player], phase_code: str) -> None:
    """The consequences of the turn of ``phase_code``'s missed deadlines, announced once each: a power
    ``abandoned`` by its miss as abandoned (with the call for a replacement), never also as newly in
    civil disorder "open for takeover after N" (issue 28.13); one gone to civil disorder as such; a
    dismissed player's power as abandoned."""
    left = {seat.id for seat in abandoned}
    announce_civil_disorder(uow, judge, game, [s for s in disordered if s.id not in left and s.status == SeatStatus.CD],
                            phase_code)
    announce_abandoned(uow, judge, game, dismissed,
                       f"was abandoned: its player was dismissed, no orders for {phase_code}")
    misses = abandon_after(options_of(game))
    in_row = f"{misses} deadlines in a row" if misses > 1 else f"the deadline of {phase_code}"
    gone = {seat.id for seat in dismissed}
    for seat in abandoned:
        if seat.id in gone:
            continue
        why = f"was abandoned: no orders for {in_row}"
        if seat.status == SeatStatus.CD:
            why += " (its units are in civil disorder until a new player orders them)"
        announce_abandoned(uow, judge, game, [seat], why)


def tell_eliminated(uow: UnitOfWork, judge: Judge, game: Game, seats: Sequence[Player], phase_code: str) -> None:
    """Each power the turn of ``phase_code`` eliminated is told so (issue 28.20); it still gets the
    results, as an observer does."""
    book = book_of(judge, game)
    for seat in seats:
        name = book.name(seat.power or "")
        mail_seat(uow, judge, seat, f"Diplomacy game {game.name}: {name} eliminated",
                  f"{name} has neither units nor supply centres left after {phase_code}:\n"
                  f"it is out of game '{game.name}'.  You will still receive the results until the game\n"
                  f"ends.  Thank you for playing.\n", kind="notice")


def announce_abandoned(uow: UnitOfWork, judge: Judge, game: Game, seats: Sequence[Player], why: str, *,
                       master: bool = True) -> None:
    """Tell everyone each power is abandoned (``why``), with a call for a replacement."""
    book = book_of(judge, game)
    for seat in seats:
        announce_vacancy(uow, judge, game, seat, book.name(seat.power or ""), why, master=master)


def reached_abandonment(seat: Player, options: GameOptions) -> bool:
    """The miss just counted is the one that abandons the power (not one after it)."""
    return seat.status in (SeatStatus.ACTIVE, SeatStatus.CD) and seat.missed_in_row == abandon_after(options)


def due_at_once(uow: UnitOfWork, game: Game, phase: Phase, now: datetime,
                rows: Sequence[OrderRow] | None = None) -> bool:
    """When only powers without a player at the board have orders to give in ``phase`` (and none
    asked to WAIT), the game is due ``now`` (the phase keeps its deadline: processed before it, it is
    no missed deadline); returns whether it did.  ``rows``: the phase's orders when the caller knows them."""
    statuses = seat_statuses(uow, game, phase, rows)
    needing = [seat for seat, status in statuses if status.needs_orders]
    if not needing or any(seat.status in AT_THE_BOARD for seat in needing):
        return False
    if any(seat.wait for seat, _ in statuses if seat.status in (*AT_THE_BOARD, SeatStatus.CD)):
        return False
    game.deadline = now
    return True
