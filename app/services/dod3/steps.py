"""Running the steps of a DoD III turn: the automatic ones (weather on the GM's chart, bonus bid
points), opening the next step that waits for someone, and closing a step at its deadline
(or when everyone has answered, or on the GM's DOD3 PROCESS).

Step codes: ``MA1936A`` bids, ``AM`` Democrat move-downs, ``B`` weather, ``C1``, ``C2``... one
per option slot of political affairs, ``D`` bonus bid points, ``E`` the GM's steps E-I.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from app.db import queries
from app.db.models import Game, Phase
from app.db.statuses import GameStatus, PhaseStatus
from app.dod3.initiative import MoveDown, apply_move_downs, move_down_order
from app.dod3.report import initiative_lines, name
from app.dod3.state import (
    GameState,
    advance,
    apply_bonus_bid_points,
    democrat_move_downs,
    fail_unsettled,
    record_weather,
    resolve_initiative,
    start_political_phase,
)
from app.dod3.turns import MONTH_PAIRS, turn_label
from app.dod3.turns import Phase as Step
from app.services.kernel.context import Judge
from app.services.kernel.outcome import ProcessError, TurnOutcome, bump_version
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_master

from . import report
from .mailing import Line, Opened, Secret, deadline_text, sections_with, send_notice
from .store import (
    cfg_of,
    current_state,
    dump,
    ensure_dice,
    hours_for,
    next_seq,
    roller_of,
    save_cfg,
    save_roller,
    step_code,
    step_of,
)

__all__ = ["bids_of", "finish", "moves_of", "process_turn", "run_on", "valid_moves"]


def _open(uow: UnitOfWork, game: Game, state: GameState, step: str, now: datetime) -> tuple[str, datetime]:
    db = uow.session
    code = step_code(state.turn, step)
    deadline = now + timedelta(hours=hours_for(game, step))
    db.add(Phase(game_id=game.id, seq=next_seq(uow, game), code=code, status=PhaseStatus.OPEN,
                 state_before=dump(state), deadline=deadline))
    db.flush()
    game.phase, game.deadline, game.grace_until, game.reminded_phase = code, deadline, None, None
    return code, deadline


def _record(uow: UnitOfWork, game: Game, before: GameState, after: GameState, step: str, now: datetime) -> None:
    """A step the judge did by itself (weather from the GM's chart, bonus bid points)."""
    db = uow.session
    db.add(Phase(game_id=game.id, seq=next_seq(uow, game), code=step_code(before.turn, step), status=PhaseStatus.PROCESSED,
                 state_before=dump(before), state_after=dump(after), results={"automatic": True},
                 processed_at=now))
    db.flush()


def _months(state: GameState) -> str:
    return MONTH_PAIRS[state.turn % len(MONTH_PAIRS)]


def _bonus_events(before: GameState, after: GameState) -> list[Line]:
    events: list[Line] = []
    for change in after.bonus:
        if change.money_lost:
            text = f"Bonus: {name(change.power)} loses {change.money_lost} money"
        elif change.bid_points_gained:
            points = change.bid_points_gained
            text = f"Bonus: {name(change.power)} +{points} bid point{'' if points == 1 else 's'}"
        else:
            continue
        if before.power(change.power).pe_hidden:
            events.append(Secret(change.power, f"Bonus: {name(change.power)} ? (PE face down)", text))
        else:
            events.append(text)
    return events


def run_on(uow: UnitOfWork, judge: Judge, game: Game, state: GameState, events: list[Line]) -> Opened:
    """Run the automatic steps from ``state`` (at the start of a step) and open the next step
    that waits for someone."""
    now = judge.now()
    while True:
        if state.ended:
            game.status, game.deadline, game.grace_until = GameStatus.FINISHED, None, None
            return Opened(None, "THE GAME HAS ENDED: " + "; ".join(state.ended), ended=tuple(state.ended))
        state = ensure_dice(game, state)
        step = state.phase
        label = turn_label(state.turn)
        if step == Step.INITIATIVE:
            code, deadline = _open(uow, game, state, "A", now)
            return Opened(code, f"{code}, {label}, step A: initiative bids (BID <power> <points> [OPTIONS <n>]) "
                                f"by {deadline_text(game, deadline)}.", deadline, commitment=state.dice_commitment)
        if step == Step.WEATHER:
            if any(months == _months(state) for months, _ in state.setup.weather_chart):
                roller = roller_of(game)
                die = roller.roll("weather")
                save_roller(game, roller)
                after = record_weather(state, die=die)
                events.append(f"Weather ({_months(state)}, d10 = {die}): {after.weather}")
                _record(uow, game, state, after, "B", now)
                state = advance(after)
                continue
            code, deadline = _open(uow, game, state, "B", now)
            mail_master(uow, judge, game, f"DoD3 {game.name}: enter the weather for {label}",
                        f"The weather chart column for {_months(state)} has not been entered.\n"
                        f"Send DOD3 WEATHER <result> (or DOD3 SET WEATHER {_months(state)} <10 results>).\n",
                        kind="gm")
            return Opened(code, f"{code}, {label}, step B: the GM enters the weather (DOD3 WEATHER <result>) "
                                f"by {deadline_text(game, deadline)}.", deadline)
        if step == Step.POLITICAL_AFFAIRS:
            if state.political is None:
                state = start_political_phase(state)
            political = state.political
            if political is None or political.ended:
                events.append("Political affairs: no power bid for an option.")
                state = advance(state)
                continue
            code, deadline = _open(uow, game, state, f"C{len(political.rolls) + 1}", now)
            power = political.current_power or "?"
            return Opened(code, f"{code}, {label}, political affairs: {name(power)} to name its option "
                                f"(OPTION {power} <option> [MINOR <minor>], or PASS {power}) by "
                                f"{deadline_text(game, deadline)}.", deadline, power=power)
        if step == Step.BONUS_BID_POINTS:
            after = apply_bonus_bid_points(state)
            events.extend(_bonus_events(state, after))
            _record(uow, game, state, after, "D", now)
            state = advance(after)
            continue
        # Steps E to I: entered by the GM, closed by DOD3 PROCESS (or the deadline).
        code, deadline = _open(uow, game, state, "E", now)
        return Opened(code, f"{code}, {label}, steps E-I: the GM enters military affairs, production, US entry, "
                            f"conquest and objectives by {deadline_text(game, deadline)}.", deadline)


def finish(uow: UnitOfWork, judge: Judge, phase: Phase, after: GameState, results: dict[str, Any], text: str) -> None:
    db = uow.session
    phase.state_after = dump(after)
    phase.results = results
    phase.results_text = text
    phase.status = PhaseStatus.PROCESSED
    phase.processed_at = judge.now()
    db.flush()


def bids_of(uow: UnitOfWork, game: Game, phase: Phase) -> dict[str, dict[str, int]]:
    db = uow.session
    bids: dict[str, dict[str, int]] = {}
    for row in queries.orders_for(db, game.id, phase.code):
        if row.unit == "BID" and row.order:
            points, _, options = row.order.partition("/")
            bids[row.power] = {"points": int(points), "options": int(options or 1)}
    return bids


def moves_of(uow: UnitOfWork, game: Game, phase: Phase) -> dict[str, str]:
    db = uow.session
    return {row.power: row.order or "STAY" for row in queries.orders_for(db, game.id, phase.code)
            if row.unit == "MOVE"}


def valid_moves(state: GameState, moves: dict[str, str]) -> tuple[list[MoveDown], list[str]]:
    """The received move-downs that can be applied, in reverse initiative order; the others refused."""
    if state.initiative is None:
        return [], []
    accepted: list[MoveDown] = []
    refused: list[str] = []
    for power in move_down_order(state.initiative):
        order = moves.get(power, "STAY")
        if order == "STAY":
            continue
        move = MoveDown(power, below=order.split()[-1])
        try:
            apply_move_downs(state.initiative, accepted + [move])
        except ValueError as error:
            refused.append(f"{name(power)} cannot move down: {error}")
            continue
        accepted.append(move)
    return accepted, refused


def process_turn(uow: UnitOfWork, judge: Judge, game: Game, *, expected_phase: str | None = None,
                 notes: Sequence[str] | None = None) -> TurnOutcome:
    """The open step's deadline has come (or the GM said PROCESS): close it and go on."""
    db = uow.session
    if expected_phase and game.phase and expected_phase.upper() != game.phase.upper():
        raise ProcessError(f"the step is {game.phase}, not {expected_phase.upper()}")
    phase = queries.open_phase(db, game.id)
    if phase is None:
        raise ProcessError(f"game '{game.name}' has no open step")
    bump_version(uow, game)
    state = current_state(game, phase)
    step = step_of(phase.code)
    events: list[Line] = list(notes or [])
    winner = None
    if step == "A":
        mails = _reveal_bids(uow, judge, game, phase, state, events)
    elif step == "AM":
        mails = _close_move_downs(uow, judge, game, phase, state, events)
    elif step == "B":
        after = record_weather(state, result="not entered by the GM")
        finish(uow, judge, phase, after, {"weather": after.weather}, f"Weather: {after.weather}")
        opened = run_on(uow, judge, game, advance(after), events)
        mails = send_notice(uow, judge, game, f"weather {turn_label(state.turn)}",
                            [("Weather", ["Not entered by the GM by the deadline.", *events])], opened)
    elif step.startswith("C"):
        political = state.political
        if political is None or political.current_power is None:
            raise ProcessError("no option is awaited")
        power = political.current_power
        after = replace(state, political=political.pass_turn(power)).note(f"{power} passes (no option by the deadline)")
        mails = after_slot(uow, judge, game, phase, state, after, [f"{name(power)} named no option by the deadline "
                                                                   "and passes."])
    elif step == "E":
        mails, winner = _end_turn(uow, judge, game, phase, state)
    else:
        raise ProcessError(f"unknown step {phase.code}")
    return TurnOutcome(game=game.name, phase=phase.code, next_phase=game.phase if game.status != GameStatus.FINISHED else None,
                       winner=winner, mails=mails)


def _reveal_bids(uow: UnitOfWork, judge: Judge, game: Game, phase: Phase, state: GameState, events: list[Line]) -> int:
    bids = bids_of(uow, game, phase)
    try:
        after = resolve_initiative(state, bids)
    except ValueError:
        # A pool shrank after the bid was accepted (a GM entry): such a bid counts as no bid.
        pools = {p.power: p.bid_points for p in state.powers}
        bids = {p: b for p, b in bids.items() if b["points"] <= pools.get(p, 0)}
        after = resolve_initiative(state, bids)
    phase.orders_received = {power: [f"BID {power} {b['points']} OPTIONS {b['options']}"] for power, b in bids.items()}
    phase.orders_parsed = bids
    initiative = after.initiative
    if initiative is None:
        raise ProcessError("the bids could not be revealed")
    lines: list[Line] = list(initiative_lines(after))
    order = move_down_order(initiative)
    title = f"bids revealed {turn_label(state.turn)}"
    if order:
        finish(uow, judge, phase, after, {"initiative": initiative.to_dict()}, "\n".join(initiative_lines(after)))
        code, deadline = _open(uow, game, after, "AM", judge.now())
        opened = Opened(code, f"{code}: Democrat move-downs, in reverse initiative order ({', '.join(order)}): "
                              f"MOVEDOWN <power> BELOW <power> or STAY <power> by {deadline_text(game, deadline)}.",
                        deadline)
        return send_notice(uow, judge, game, title, [("Initiative: the bids revealed", lines)], opened)
    after = democrat_move_downs(after, {})
    finish(uow, judge, phase, after, {"initiative": after.initiative.to_dict() if after.initiative else None},
           "\n".join(initiative_lines(after)))
    opened = run_on(uow, judge, game, advance(after), events)
    return send_notice(uow, judge, game, title, sections_with(("Initiative: the bids revealed", lines), events), opened)


def _close_move_downs(uow: UnitOfWork, judge: Judge, game: Game, phase: Phase, state: GameState,
                      events: list[Line]) -> int:
    moves = moves_of(uow, game, phase)
    accepted, refused = valid_moves(state, moves)
    after = democrat_move_downs(state, accepted)
    phase.orders_received = {power: [order] for power, order in moves.items()}
    lines = [f"{name(m.power)} moves down below {name(m.below or '?')}." for m in accepted] or [
        "No Democrat moved down."]
    lines += refused
    lines.append("Track: " + ", ".join(after.track))
    finish(uow, judge, phase, after, {"move_downs": [m.to_dict() for m in accepted]}, "\n".join(lines))
    opened = run_on(uow, judge, game, advance(after), events)
    return send_notice(uow, judge, game, f"initiative track {turn_label(state.turn)}",
                       sections_with(("Democrat move-downs", lines), events), opened)


def after_slot(uow: UnitOfWork, judge: Judge, game: Game, phase: Phase, before: GameState, after: GameState,
               lines: list[str]) -> int:
    """An option slot is over (option and end roll, or a pass): the next slot, or step D."""
    political = after.political
    finish(uow, judge, phase, after, {"political": political.to_dict() if political else None}, "\n".join(lines))
    events: list[Line] = []
    ended = political is None or political.ended
    if ended:
        lines = lines + ["Political affairs are over for this turn."]
    opened = run_on(uow, judge, game, advance(after) if ended else after, events)
    return send_notice(uow, judge, game, f"political affairs {turn_label(before.turn)}",
                       sections_with(("Political affairs", lines), events), opened)


def _end_turn(uow: UnitOfWork, judge: Judge, game: Game, phase: Phase, state: GameState) -> tuple[int, str | None]:
    at_i = fail_unsettled(state)
    while at_i.phase != Step.END_OF_TURN:
        at_i = advance(at_i)
    roller = roller_of(game)
    cfg = cfg_of(game)
    after = advance(at_i)
    tally_view = None
    if cfg.get("tally") or after.ended:  # rule 4: the end of the game always carries the tally
        tally_view = report.tally_view(game, at_i)
        cfg["tally"] = False
        save_cfg(game, cfg)
    dice = roller.to_dict(reveal=True)
    finish(uow, judge, phase, after, {"dice": dice, "tally": tally_view}, "")
    events: list[Line] = []
    opened = run_on(uow, judge, game, after, events)
    text, mails = report.mail_turn_report(uow, judge, game, after if after.ended else at_i, roller, tally_view,
                                          opened, events)
    phase.results_text = text
    winners = (tally_view or {}).get("winning_players") if after.ended else None
    return mails, (" and ".join(winners) if winners else None)
