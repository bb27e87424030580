"""What DoD III players send: secret bids (step A), Democrat move-downs, and options or passes
in political affairs. A player acts for any of the powers he holds (rule 3.1 groupings)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, OrderRow, Phase
from app.db.statuses import SeatStatus
from app.dod3.exact import format_number
from app.dod3.initiative import move_down_order
from app.services.errors import DomainError
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.outcome import ProcessError, TurnOutcome, bump_version
from app.services.kernel.uow import MoveDownsChanged, UnitOfWork
from app.services.mailout.notify import mail_seat

from .mailing import deadline_text
from .steps import bids_of, moves_of, process_turn, valid_moves
from .store import ROLE, current_state, game_for, name, open_phase, power_code, seat_of, setup_of, step_of

__all__ = ["BidOutcome", "MoveDownOutcome", "claim", "move_down", "own_power", "place_bid"]


def own_power(uow: UnitOfWork, actor: Actor, power: str) -> tuple[Game, str]:
    """The signed-on player may act for ``power`` only if the same player holds it."""
    game = game_for(uow, actor)
    code = power_code(power)
    seat = seat_of(uow, game, actor.power) if actor.power else None
    if seat is None or seat.role != ROLE:
        raise DomainError("not_signed_on", "sign on as one of your powers first", dod3=True)
    setup = setup_of(game)
    try:
        same = setup.player_of(seat.power or "") == setup.player_of(code)
    except KeyError:
        same = False
    target = seat_of(uow, game, code)
    if not same or target is None or target.email != seat.email:
        raise DomainError("not_your_power", f"you do not play {name(code)}")
    if target.status not in (SeatStatus.ACTIVE, SeatStatus.ABSENT, SeatStatus.CD):
        raise DomainError("seat_inactive", f"{name(code)} is {target.status}")
    return game, code


def claim(uow: UnitOfWork, game: Game) -> None:
    try:
        bump_version(uow, game)
    except ProcessError as error:
        raise DomainError("stale_game", str(error)) from error


def _order_row(db: Session, game: Game, phase: Phase, power: str, unit: str) -> OrderRow:
    rows = [row for row in queries.orders_for(db, game.id, phase.code, power) if row.unit == unit]
    if rows:
        return rows[0]
    row = OrderRow(game_id=game.id, phase=phase.code, power=power, unit=unit, line="")
    db.add(row)
    return row


@dataclass(frozen=True)
class BidOutcome:
    power: str
    points: int
    options: int
    deadline: str
    own_bids: tuple[tuple[str, int, int], ...]  # this player's bids this step: (power, points, options)
    revealed: TurnOutcome | None  # every power had bid: the bids were revealed at once


def place_bid(judge: Judge, uow: UnitOfWork, actor: Actor, power: str, points: int, options: int = 1) -> BidOutcome:
    """``BID <power> <points> [OPTIONS <n>]``: stored secretly until the deadline; 0 = no bid."""
    db = uow.session
    game, code = own_power(uow, actor, power)
    phase = open_phase(uow, game)
    if step_of(phase.code) != "A":
        raise DomainError("wrong_step", f"bids are taken in step A; this is {phase.code}")
    state = current_state(game, phase)
    holder = state.power(code)
    if holder.conquered:
        raise DomainError("conquered", f"{name(code)} has been conquered")
    if points < 0 or options < 1 or (points == 0 and options != 1):
        raise DomainError("bad_bid", "bid 0 or more points, for 1 or more options (0 means no bid)")
    if points > holder.bid_points:
        pool = format_number(holder.bid_points)
        raise DomainError("too_few_points", f"{name(code)} has only {pool} bid point{'' if pool == '1' else 's'}")
    row = _order_row(db, game, phase, code, "BID")
    row.line = f"BID {code} {points}" + (f" OPTIONS {options}" if options > 1 else "")
    row.order = f"{points}/{options}"
    row.checked = True
    db.flush()
    audit(uow, actor, game, "dod3_bid", power=code)  # the amount stays out of the audit log until the reveal
    bids = bids_of(uow, game, phase)
    own = setup_of(game).player_of(code)
    mine = sorted((p for p in bids if setup_of(game).player_of(p) == own),
                  key=lambda p: state.track.index(p) if p in state.track else 99)
    outcome = BidOutcome(code, points, options, deadline_text(game, game.deadline),
                         tuple((p, bids[p]["points"], bids[p]["options"]) for p in mine), None)
    if {p.power for p in state.powers if not p.conquered} <= set(bids):
        outcome = replace(outcome, revealed=process_turn(uow, judge, game))
    return outcome


@dataclass(frozen=True)
class MoveDownOutcome:
    power: str
    below: str | None  # None: the power stays where it is
    settled: TurnOutcome | None  # every Democrat had answered: the track was settled at once


def move_down(judge: Judge, uow: UnitOfWork, actor: Actor, power: str, below: str | None) -> MoveDownOutcome:
    """``MOVEDOWN <power> BELOW <power>`` or ``STAY <power>`` (step A, after the reveal)."""
    db = uow.session
    game, code = own_power(uow, actor, power)
    phase = open_phase(uow, game)
    if step_of(phase.code) != "AM":
        raise DomainError("wrong_step", f"move-downs are taken after the bids are revealed; this is {phase.code}")
    state = current_state(game, phase)
    if state.initiative is None:
        raise DomainError("wrong_step", "the bids have not been revealed yet")
    order = move_down_order(state.initiative)
    if code not in order:
        raise DomainError("not_a_democrat", f"only the Democrats may move down ({', '.join(order)})")
    anchor = power_code(below) if below is not None else None
    text = f"BELOW {anchor}" if anchor else "STAY"
    if anchor is not None:
        accepted, refused = valid_moves(state, {**moves_of(uow, game, phase), code: text})
        if code not in [m.power for m in accepted]:
            reason = next((r for r in refused if r.startswith(name(code))), f"{name(code)} cannot move there")
            raise DomainError("bad_move_down", reason)
    row = _order_row(db, game, phase, code, "MOVE")
    row.line, row.order, row.checked = (f"MOVEDOWN {code} {text}" if anchor else f"STAY {code}"), text, True
    db.flush()
    audit(uow, actor, game, "dod3_movedown", power=code, move=text)
    answered = moves_of(uow, game, phase)
    if all(p in answered for p in order):
        return MoveDownOutcome(code, anchor, process_turn(uow, judge, game))
    uow.record(MoveDownsChanged(game.id))  # the next Democrat is called once the mail's commands have run
    return MoveDownOutcome(code, anchor, None)


def call_next_democrat(uow: UnitOfWork, judge: Judge, game: Game) -> None:
    """After the move-downs changed (``MoveDownsChanged``): call the next Democrat still to answer, if
    the step is still open (every Democrat may have answered meanwhile: the track is settled)."""
    phase = uow.open_phase_of(game)
    if phase is None or step_of(phase.code) != "AM":
        return
    state = current_state(game, phase)
    if state.initiative is None:
        return
    order = move_down_order(state.initiative)
    _call_next_democrat(uow, judge, game, phase, order, moves_of(uow, game, phase))


def _call_next_democrat(uow: UnitOfWork, judge: Judge, game: Game, phase: Phase, order: Sequence[str],
                        answered: dict[str, str]) -> None:
    """Rule 6: "each Democrat in reverse initiative order has one chance". The first Democrat
    still to answer, once every one before him has, is told what they did (once)."""
    told = list((phase.results or {}).get("told", []))
    before: list[str] = []
    for power in order:
        if power not in answered:
            if power in told or not before:  # the first Democrat was called by the reveal's notice
                return
            seat = seat_of(uow, game, power)
            if seat is not None:
                mail_seat(uow, judge, seat, f"DoD3 {game.name}: {name(power)} may move down",
                          "The Democrats before you have chosen:\n" + "".join(f"  {line}\n" for line in before)
                          + f"Your turn: MOVEDOWN {power} BELOW <power> or STAY {power} by "
                            f"{deadline_text(game, game.deadline)}.\n", kind="notice")
            phase.results = {**(phase.results or {}), "told": told + [power]}
            return
        move = answered[power]
        before.append(f"{name(power)} stays." if move == "STAY"
                      else f"{name(power)} moves down below {name(move.split()[-1])}.")
