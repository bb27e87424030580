"""TAKEOVER of a vacant power (issue 8.5).

A power is *vacant* when its player resigned, the GM ejected him, or he abandoned it.
*Abandoned* is what the game's NMR policy says: with ``SET NMR wait`` the first missed deadline;
otherwise ``abandon_after`` missed deadlines in a row (default 2; a power in civil disorder
after one miss is not vacant).  A missed deadline alone never opens a power.

Who may take it: anyone when the GM set ``SET TAKEOVER open``; otherwise (the default) the
request goes to the GM, who approves it with ``REPLACE power address`` (the password asked with
is kept: ``requested_password_hash``).  The previous player, the GM, the players and the
observers are told of every takeover; a vacancy is announced with a call for a replacement
(``announce_vacancy``), and the new player is welcomed with the position (``welcome_text``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import AuditEntry, Game, Player
from app.db.statuses import GameStatus, SeatRole, SeatStatus
from app.services.errors import DomainError
from app.services.kernel.access import book_of, find_game
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.render import deadline_text
from app.services.kernel.security import hash_password, new_token
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.addresses import check_player_address
from app.services.mailout.notify import mail_game, mail_master
from app.services.mailout.outbox import enqueue
from app.services.ruleset.options import ABANDON_AFTER, GameOptions, options_of
from app.services.ruleset.stored import stored_state

__all__ = ["ABANDON_AFTER", "TakeoverAsked", "TookOver", "VACANT", "abandon_after", "announce_vacancy",
           "is_vacant", "new_player", "open_takeovers", "request_or_take", "requested_password_hash",
           "tell_previous_player", "waiting_requests", "welcome_text"]

VACANT = (SeatStatus.RESIGNED, SeatStatus.ABANDONED)


@dataclass(frozen=True)
class TookOver:
    game_id: int
    game_name: str
    seat_id: int
    power: str
    power_name: str
    reply_address: str


@dataclass(frozen=True)
class TakeoverAsked:
    """The game wants the GM's approval: the GM was asked."""

    game_name: str
    power: str
    power_name: str


def open_takeovers(options: GameOptions) -> bool:
    return options.takeover == "open"


def abandon_after(options: GameOptions) -> int:
    """How many missed deadlines in a row abandon a power (1 under the NMR policy ``wait``)."""
    return options.misses_to_abandon


def is_vacant(seat: Player, options: GameOptions) -> bool:
    """Resigned, ejected (``abandoned``), or missed ``abandon_after`` deadlines in a row: the seat
    keeps its status (civil disorder: its player still gets the results) but may be taken over."""
    if seat.status in VACANT:
        return True
    return seat.status in (SeatStatus.ACTIVE, SeatStatus.CD) and seat.missed_in_row >= abandon_after(options)


def waiting_requests(uow: UnitOfWork, game: Game) -> list[tuple[str, str, datetime]]:
    """TAKEOVER requests still open, oldest first: (power, address, asked at): the power is vacant
    and nobody was given it since the request."""
    db = uow.session
    rows = db.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id, AuditEntry.action.in_(
        ("takeover_request", "takeover", "replace"))).order_by(AuditEntry.id))
    waiting: dict[tuple[str, str], tuple[str, str, datetime]] = {}
    for row in rows:
        power = str(row.detail.get("power") or "")
        if row.action != "takeover_request":  # the power was given to someone: earlier requests are settled
            waiting = {k: v for k, v in waiting.items() if k[0] != power}
            continue
        address = str(row.detail.get("address") or row.actor)
        waiting.pop((power, address.lower()), None)
        waiting[(power, address.lower())] = (power, address, row.created_at)
    seats = {s.power: s for s in game.players if s.power and s.role == SeatRole.PLAYER}
    options = options_of(game)
    return [r for r in waiting.values() if r[0] in seats and is_vacant(seats[r[0]], options)]


def tell_previous_player(uow: UnitOfWork, judge: Judge, game: Game, address: str, power_name: str) -> None:
    enqueue(uow, judge, to=address, subject=f"Diplomacy game {game.name}: {power_name} has a new player",
            text=f"{power_name} in game '{game.name}' has been given to a new player; you no longer play it.\n"
                 f"Write to the master of the game if you think this is a mistake.\n",
            kind="notice", game_id=game.id)


def requested_password_hash(uow: UnitOfWork, game: Game, power: str, address: str) -> str | None:
    """The password (hashed) ``address`` chose when asking to take ``power`` over, if it asked."""
    db = uow.session
    rows = db.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id, AuditEntry.action == "takeover_request")
                      .order_by(AuditEntry.id.desc()))
    for row in rows:
        if row.detail.get("power") == power and str(row.detail.get("address", "")).lower() == address.lower():
            hashed = row.detail.get("password_hash")
            return str(hashed) if hashed else None
    return None


def new_player(seat: Player) -> None:
    """What a seat's new player starts with: no misses, no WAIT, no vote or concession of the last one."""
    seat.status = SeatStatus.ACTIVE
    seat.reply_token = new_token()
    seat.misses = 0
    seat.missed_in_row = 0
    seat.wait = False
    seat.draw = None
    seat.concede = None


def welcome_text(judge: Judge, uow: UnitOfWork, game: Game, seat: Player, name: str) -> str:
    """How a new player of a running game signs on, and where the power stands: the phase, its units
    and centres, the deadline (issue 22.5)."""
    db = uow.session
    book = book_of(judge, game)
    zone = options_of(game).timezone
    lines = [f"You now play {name} in game '{game.name}' ({game.variant}).  Sign on with",
             "", f"  SIGNON {book.letter(seat.power or '')}{game.name} <your password>", "",
             f"or simply reply to this mail: replies to {judge.settings.token_address(seat.reply_token)}",
             "sign you on without a password.  Keep that address private.", ""]
    phase = queries.open_phase(db, game.id)
    if phase is not None:
        drawn = "units" in (phase.state_before or {})  # a position on a map (a DoD III step has its own)
        state = stored_state(phase.state_before) if drawn else None
        units = state.units.get(seat.power or "") if state is not None else None
        centres = state.centres.get(seat.power or "") if state is not None else None
        if units is not None:
            lines.append(f"Your units: {', '.join(units) or 'none'}.")
        if centres is not None:
            lines.append(f"Your supply centres ({len(centres)}): {', '.join(centres) or 'none'}.")
        shown = deadline_text(game.deadline, game.grace_until, phase.deadline, zone)
        lines.append(f"The current phase is {phase.code}; the deadline for its orders {shown.sentence}.")
        lines.append(f"Send STATUS for the orders your power has so far, HISTORY {game.name} for the results.")
    return "\n".join(lines) + "\n"


def announce_vacancy(uow: UnitOfWork, judge: Judge, game: Game, seat: Player, name: str, why: str, *,
                     master: bool = True) -> None:
    """Tell the board (and the GM) that a power has no player, and call for a replacement."""
    how = ("anyone may take it" if open_takeovers(options_of(game))
           else "the master approves the request")
    mail_game(uow, judge, game, f"Diplomacy game {game.name}: {name} needs a new player",
              f"{name} in game '{game.name}' {why}.\n"
              f"A replacement is wanted: the power is open for takeover ({how}) with\n\n"
              f"  TAKEOVER {(seat.power or '').lower()}@{game.name} <password>\n\n"
              f"Pass the word to anyone who might play it.\n", kind="notice", master=master)


def _vacant_seat(judge: Judge, db: Session, game: Game, power: str) -> tuple[Player, str]:
    if power.lower() == "master":
        raise DomainError("master_not_vacant", "the master role is handed over by the GM")
    book = book_of(judge, game)
    pid = book.find(power)
    if pid is None:
        raise DomainError("unknown_power", f"no power called '{power}'")
    seat = queries.seat_for_power(db, game.id, pid)
    options = options_of(game)
    if seat is None or not is_vacant(seat, options):
        raise DomainError("not_vacant", f"{book.name(pid)} is not vacant: only a power that was resigned, "
                                        f"ejected or abandoned (no orders for {abandon_after(options)} "
                                        f"deadline(s) in a row) may be taken over")
    return seat, book.name(pid)


def request_or_take(judge: Judge, uow: UnitOfWork, actor: Actor, game_name: str, power: str,
                    password: str) -> TookOver | TakeoverAsked:
    """TAKEOVER: take a vacant power (open takeovers), or ask the GM to approve it."""
    db = uow.session
    game = find_game(uow, game_name)
    seat, name = _vacant_seat(judge, db, game, power)
    pid = seat.power or ""
    if not open_takeovers(options_of(game)):
        audit(uow, actor, game, "takeover_request", power=pid, address=actor.address,
              password_hash=hash_password(password))  # REPLACE without a password gives it (issue 22.5)
        mail_master(uow, judge, game, f"Diplomacy game {game.name}: {actor.address} asks for {name}",
                    f"{actor.address} asks to take over {name} ({seat.status}) in game '{game.name}'.\n"
                    f"To approve, sign on as master and send\n\n  REPLACE {name} {actor.address}\n\n"
                    f"(the new player is mailed a password and a reply address).  To let anyone take a\n"
                    f"vacant power without asking, send SET TAKEOVER open.\n")
        return TakeoverAsked(game.name, pid, name)
    previous = seat.email
    seat.email = check_player_address(actor.address, judge.settings.judge_address)
    seat.password_hash = hash_password(password)
    new_player(seat)
    db.flush()
    audit(uow, actor, game, "takeover", power=pid)
    if previous.lower() != actor.address.lower():
        tell_previous_player(uow, judge, game, previous, name)
    mail_game(uow, judge, game, f"Diplomacy game {game.name}: takeover",
              f"{name} in game '{game.name}' has a new player.\n", kind="notice")
    if game.status == GameStatus.PAUSED and game.paused_reason == "waiting for a replacement" and not any(
            s.status == SeatStatus.ABANDONED for s in game.players):
        game.status, game.paused_reason = GameStatus.ACTIVE, None
    return TookOver(game.id, game.name, seat.id, pid, name, judge.settings.token_address(seat.reply_token))
