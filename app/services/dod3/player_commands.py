"""What DoD III players send: secret bids (step A), Democrat move-downs, and options or passes
in political affairs. A player acts for any of the powers he holds (rule 3.1 groupings)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, OrderRow, Phase
from app.dod3.exact import format_number
from app.dod3.initiative import move_down_order
from app.dod3.political import EndRoll, OptionPlay, option_family
from app.dod3.report import play_line, roll_lines
from app.dod3.state import GameState, choose_option, roll_political_end
from app.services.actor import Actor
from app.services.context import Judge
from app.services.errors import DomainError
from app.services.notify import mail_master, mail_seat
from app.services.turns import ProcessError, TurnOutcome, bump_version

from .mailing import deadline_text
from .steps import after_slot, bids_of, moves_of, process_turn, valid_moves
from .store import (
    ROLE,
    audit,
    current_state,
    game_for,
    name,
    open_phase,
    power_code,
    roller_of,
    save_roller,
    seat_of,
    setup_of,
    step_of,
)

__all__ = ["BidOutcome", "MoveDownOutcome", "OptionOutcome", "move_down", "place_bid", "play_option"]


def _own_power(db: Session, actor: Actor, power: str) -> tuple[Game, str]:
    """The signed-on player may act for ``power`` only if the same player holds it."""
    game = game_for(db, actor)
    code = power_code(power)
    seat = seat_of(db, game, actor.power) if actor.power else None
    if seat is None or seat.role != ROLE:
        raise DomainError("not_signed_on", "sign on as one of your powers first (SIGNON <power>@<game> <password>)")
    setup = setup_of(game)
    try:
        same = setup.player_of(seat.power or "") == setup.player_of(code)
    except KeyError:
        same = False
    target = seat_of(db, game, code)
    if not same or target is None or target.email != seat.email:
        raise DomainError("not_your_power", f"you do not play {name(code)}")
    if target.status not in ("active", "absent", "cd"):
        raise DomainError("seat_inactive", f"{name(code)} is {target.status}")
    return game, code


def _claim(db: Session, game: Game) -> None:
    try:
        bump_version(db, game)
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


def place_bid(judge: Judge, db: Session, actor: Actor, power: str, points: int, options: int = 1) -> BidOutcome:
    """``BID <power> <points> [OPTIONS <n>]``: stored secretly until the deadline; 0 = no bid."""
    game, code = _own_power(db, actor, power)
    phase = open_phase(db, game)
    if step_of(phase.code) != "A":
        raise DomainError("wrong_step", f"bids are taken in step A; this is {phase.code}")
    state = current_state(game, phase)
    holder = state.power(code)
    if holder.conquered:
        raise DomainError("conquered", f"{name(code)} has been conquered")
    if points < 0 or options < 1 or (points == 0 and options != 1):
        raise DomainError("bad_bid", "bid 0 or more points, for 1 or more options (0 means no bid)")
    if points > holder.bid_points:
        raise DomainError("too_few_points", f"{name(code)} has only {format_number(holder.bid_points)} bid points")
    row = _order_row(db, game, phase, code, "BID")
    row.line = f"BID {code} {points}" + (f" OPTIONS {options}" if options > 1 else "")
    row.order = f"{points}/{options}"
    row.checked = True
    db.flush()
    audit(db, game, actor, "dod3_bid", power=code)  # the amount stays out of the audit log until the reveal
    bids = bids_of(db, game, phase)
    own = setup_of(game).player_of(code)
    mine = sorted((p for p in bids if setup_of(game).player_of(p) == own),
                  key=lambda p: state.track.index(p) if p in state.track else 99)
    outcome = BidOutcome(code, points, options, deadline_text(game, game.deadline),
                         tuple((p, bids[p]["points"], bids[p]["options"]) for p in mine), None)
    if {p.power for p in state.powers if not p.conquered} <= set(bids):
        outcome = replace(outcome, revealed=process_turn(db, judge, game))
    return outcome


@dataclass(frozen=True)
class MoveDownOutcome:
    power: str
    below: str | None  # None: the power stays where it is
    settled: TurnOutcome | None  # every Democrat had answered: the track was settled at once


def move_down(judge: Judge, db: Session, actor: Actor, power: str, below: str | None) -> MoveDownOutcome:
    """``MOVEDOWN <power> BELOW <power>`` or ``STAY <power>`` (step A, after the reveal)."""
    game, code = _own_power(db, actor, power)
    phase = open_phase(db, game)
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
        accepted, refused = valid_moves(state, {**moves_of(db, game, phase), code: text})
        if code not in [m.power for m in accepted]:
            reason = next((r for r in refused if r.startswith(name(code))), f"{name(code)} cannot move there")
            raise DomainError("bad_move_down", reason)
    row = _order_row(db, game, phase, code, "MOVE")
    row.line, row.order, row.checked = (f"MOVEDOWN {code} {text}" if anchor else f"STAY {code}"), text, True
    db.flush()
    audit(db, game, actor, "dod3_movedown", power=code, move=text)
    answered = moves_of(db, game, phase)
    if all(p in answered for p in order):
        return MoveDownOutcome(code, anchor, process_turn(db, judge, game))
    _call_next_democrat(db, judge, game, phase, order, answered)
    return MoveDownOutcome(code, anchor, None)


def _call_next_democrat(db: Session, judge: Judge, game: Game, phase: Phase, order: Sequence[str],
                        answered: dict[str, str]) -> None:
    """Rule 6: "each Democrat in reverse initiative order has one chance". The first Democrat
    still to answer, once every one before him has, is told what they did (once)."""
    told = list((phase.results or {}).get("told", []))
    before: list[str] = []
    for power in order:
        if power not in answered:
            if power in told or not before:  # the first Democrat was called by the reveal's notice
                return
            seat = seat_of(db, game, power)
            if seat is not None:
                mail_seat(db, judge, seat, f"DoD3 {game.name}: {name(power)} may move down",
                          "The Democrats before you have chosen:\n" + "".join(f"  {line}\n" for line in before)
                          + f"Your turn: MOVEDOWN {power} BELOW <power> or STAY {power} by "
                            f"{deadline_text(game, game.deadline)}.\n", kind="notice")
            phase.results = {**(phase.results or {}), "told": told + [power]}
            return
        move = answered[power]
        before.append(f"{name(power)} stays." if move == "STAY"
                      else f"{name(power)} moves down below {name(move.split()[-1])}.")


@dataclass(frozen=True)
class OptionOutcome:
    power: str
    play: OptionPlay | None  # None: the power passed
    roll: EndRoll | None
    roll_counter: int | None  # the die's number in this turn's committed dice


def _state_for_option(db: Session, actor: Actor, power: str) -> tuple[Game, Phase, GameState, str]:
    game, code = _own_power(db, actor, power)
    phase = open_phase(db, game)
    if not step_of(phase.code).startswith("C"):
        raise DomainError("wrong_step", f"options are named in political affairs; this is {phase.code}")
    state = current_state(game, phase)
    current = state.political.current_power if state.political else None
    if current != code:
        raise DomainError("not_your_turn", f"it is {name(current) if current else 'nobody'}'s turn to name an "
                                           f"option, not {name(code)}'s")
    return game, phase, state, code


def _tell_gm_of_missing_cost(db: Session, judge: Judge, game: Game, state: GameState, power: str,
                             option: str) -> None:
    """A player blocked by a cost the GM has not entered: the GM is mailed at once (issue 9 item 15)."""
    try:
        family = option_family(option)
    except ValueError:
        return  # not an option at all: choose_option says why
    if state.setup.option_cost(family) is not None:
        return
    mail_master(db, judge, game, f"DoD3 {game.name}: {name(power)} waits for the cost of {family}",
                f"{name(power)} wants to play {family} in '{game.name}', but no cost has been entered for it.\n"
                f"Send DOD3 SET COST {family} <n>; {name(power)}'s player can then send the option again "
                f"(deadline {deadline_text(game, game.deadline)}).\n", kind="gm")
    raise DomainError("no_cost", f"no cost entered for {family}: the GM must give it (the GM has been told)")


def play_option(judge: Judge, db: Session, actor: Actor, power: str, option: str | None,
                minor: str | None = None) -> OptionOutcome:
    """``OPTION <power> <option> [MINOR <minor>]`` or, with option None, ``PASS <power>``."""
    game, phase, state, code = _state_for_option(db, actor, power)
    political = state.political
    if political is None:
        raise DomainError("wrong_step", "political affairs have not begun")
    _claim(db, game)
    if option is None:
        after = replace(state, political=political.pass_turn(code)).note(f"{code} passes")
        after_slot(db, judge, game, phase, state, after, [f"{name(code)} passes."])
        audit(db, game, actor, "dod3_option", power=code, option=None)
        return OptionOutcome(code, None, None, None)
    _tell_gm_of_missing_cost(db, judge, game, state, code, option)
    try:
        chosen = choose_option(state, code, option, minor_activated=minor)
    except ValueError as error:
        raise DomainError("bad_option", str(error).strip("'\"")) from error
    if chosen.political is None:
        raise DomainError("bad_option", "the option was not recorded")
    play = chosen.political.plays[-1]
    counter = None
    if chosen.political.is_last_slot:
        after = roll_political_end(chosen, None)
    else:
        roller = roller_of(game)
        counter = len(roller.rolls)
        die = roller.roll(f"end roll after {code} {play.option}")
        save_roller(game, roller)
        after = roll_political_end(chosen, die)
    roll = after.political.rolls[-1] if after.political else None
    lines = [play_line(play)] + (roll_lines(roll, None if roll is None or roll.die is None else counter)
                                 if roll is not None else [])
    after_slot(db, judge, game, phase, state, after, lines)
    audit(db, game, actor, "dod3_option", power=code, option=play.option, die=roll.die if roll else None)
    return OptionOutcome(code, play, roll, counter if roll is not None and roll.die is not None else None)
