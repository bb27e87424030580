"""The turn report mailed at the end of each DoD III turn, the victory tally and the status
view (the GM's, or a player's own), all built by ``app.dod3.report`` and laid out by the
``templates/mail/dod3/report.*.j2`` templates."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, Phase
from app.db.statuses import GameStatus, PhaseStatus
from app.dod3.dice import DiceRoller, Roll
from app.dod3.report import TurnReport, turn_report_view
from app.dod3.state import GameState, new_game
from app.dod3.turns import turn_key
from app.dod3.victory import victory_tally
from app.services.errors import DomainError
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork

from .mailing import Line, Opened, deadline_text, mail_all, powers_of, visible
from .store import cfg_of, current_state, game_for, gm_game_for, last_phase, name, save_cfg, setup_of, step_of

__all__ = ["StatusView", "TallyOutcome", "mail_turn_report", "render_report", "show_status", "show_tally",
           "tally_view"]


def tally_view(game: Game, state: GameState) -> dict[str, Any]:
    """Rule 4's tally as stored data, or ``{"error": ...}`` while the GM's numbers are missing."""
    try:
        result = victory_tally(
            {p.power: p.objectives for p in state.powers},
            needed=state.setup.objectives_needed(),
            neutral=cfg_of(game).get("neutral", []),
            players={player: powers for player, powers in state.setup.players},
        )
    except ValueError as error:
        return {"error": str(error).strip("'\"")}
    return result.to_dict()


def render_report(judge: Judge, view: TurnReport) -> tuple[str, str]:
    return (judge.templates.render("mail/dod3/report.txt.j2", v=view),
            judge.templates.render("mail/dod3/report.html.j2", v=view))


def _rolls(roller: DiceRoller) -> tuple[Roll, ...]:
    return tuple(roller.rolls)


def mail_turn_report(uow: UnitOfWork, judge: Judge, game: Game, state: GameState, roller: DiceRoller,
                     tally: dict[str, Any] | None, opened: Opened, events: Sequence[Line]) -> tuple[str, int]:
    """Each player's copy shows his own hidden numbers; returns the public text and the mail count."""
    dice = roller.to_dict(reveal=True)

    def view(reveal: Collection[str]) -> TurnReport:
        return turn_report_view(game.name, state, _rolls(roller), commitment=dice.get("commitment"),
                                seed=dice.get("seed"), tally=tally, next_text=opened.text,
                                next_commitment=opened.commitment, events=visible(events, reveal), reveal=reveal)

    count = mail_all(uow, judge, game, f"DoD3 {game.name}: {state.turn_label} turn report",
                     lambda reveal: render_report(judge, view(reveal)))
    return render_report(judge, view(()))[0], count


@dataclass(frozen=True)
class StatusView:
    """The game as it stands for one reader: the GM (every number) or a player (his own)."""

    report: TurnReport
    step: str | None  # the open step's code; None before the start and after the end
    deadline: str
    status: str  # forming | active | paused | finished
    bids_in: tuple[str, ...] = ()  # the GM's view in step A: who has bid (never how much)
    bids_missing: tuple[str, ...] = ()
    own_bids: tuple[tuple[str, int, int], ...] = ()  # a player's own bids this step (power, points, options)


def _bid_rows(db: Session, game: Game, phase: Phase) -> dict[str, tuple[int, int]]:
    rows = {}
    for row in queries.orders_for(db, game.id, phase.code):
        if row.unit == "BID" and row.order:
            points, _, options = row.order.partition("/")
            rows[row.power] = (int(points), int(options or 1))
    return rows


def _state_for_status(uow: UnitOfWork, game: Game) -> tuple[GameState, Phase | None]:
    phase = last_phase(uow, game)
    if phase is not None:
        return current_state(game, phase), phase
    return new_game(setup_of(game)), None  # before the start: the set-up as the game will begin


def _open_step_text(game: Game, state: GameState, code: str) -> str:
    """The NEXT block of a status report (issue 28.11): the open step, what it waits for and its
    deadline, as the step's notice said it when it opened (``steps.run_on``)."""
    step = step_of(code)
    by = f"by {deadline_text(game, game.deadline)}."
    if step == "A":
        return f"{code}, {state.turn_label}, step A: initiative bids (BID <power> <points> [OPTIONS <n>]) {by}"
    if step == "AM":
        return f"{code}: Democrat move-downs (MOVEDOWN <power> BELOW <power> or STAY <power>) {by}"
    if step == "B":
        return f"{code}, {state.turn_label}, step B: the GM enters the weather (DOD3 WEATHER <result>) {by}"
    if step.startswith("C"):
        power = state.political.current_power if state.political is not None else None
        who = f"{name(power)} to name its option (OPTION {power} <option> [MINOR <minor>], or PASS {power})" \
            if power else "the options played"
        return f"{code}, {state.turn_label}, political affairs: {who} {by}"
    return (f"{code}, {state.turn_label}, steps E-I: the GM enters military affairs, production, US entry, "
            f"conquest and objectives {by}")


def show_status(judge: Judge, uow: UnitOfWork, actor: Actor) -> StatusView:
    """``DOD3 STATUS``: the GM sees every number (before the start: the set-up; after the end:
    the final state); a player sees the public numbers and his own powers' hidden ones."""
    db = uow.session
    game = game_for(uow, actor)
    if not actor.is_gm and not actor.power:
        raise DomainError("not_player", "sign on as one of your powers or as the GM first")
    state, phase = _state_for_status(uow, game)
    dice = cfg_of(game).get("dice") or {}
    own = frozenset() if actor.is_gm else powers_of(game, _seat_email(db, game, actor))
    rolls = [Roll.from_dict(r) for r in dice.get("rolls", [])] if dice.get("turn") == turn_key(state.turn) else []
    is_open = phase is not None and phase.status == PhaseStatus.OPEN
    view = turn_report_view(game.name, state, rolls, commitment=state.dice_commitment, gm=actor.is_gm, reveal=own,
                            tally=tally_view(game, state) if state.ended else None,
                            next_text=_open_step_text(game, state, phase.code) if is_open and phase else "")
    bids_in: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    mine: tuple[tuple[str, int, int], ...] = ()
    if is_open and phase is not None and step_of(phase.code) == "A":
        bids = _bid_rows(db, game, phase)
        live = [p.power for p in state.powers if not p.conquered]
        bids_in = tuple(p for p in live if p in bids)
        missing = tuple(p for p in live if p not in bids)
        mine = tuple((p, *bids[p]) for p in live if p in bids and p in own)
    return StatusView(report=view, step=phase.code if is_open and phase is not None else None,
                      deadline=deadline_text(game, game.deadline), status=game.status,
                      bids_in=bids_in if actor.is_gm else (), bids_missing=missing if actor.is_gm else (),
                      own_bids=mine)


def _seat_email(db: Session, game: Game, actor: Actor) -> str:
    seat = queries.seat_for_power(db, game.id, actor.power) if actor.power else None
    return seat.email if seat is not None else actor.address


@dataclass(frozen=True)
class TallyOutcome:
    tally: dict[str, Any]  # VictoryResult.to_dict(), or {"error": ...}
    finished: bool  # the game is over: the tally is the final one


def show_tally(judge: Judge, uow: UnitOfWork, actor: Actor) -> TallyOutcome:
    """``DOD3 TALLY``: rule 4's tally now; it is also printed in this turn's report."""
    game = gm_game_for(uow, actor)
    if game.status == GameStatus.FORMING:
        raise DomainError("not_running", f"game '{game.name}' is not running ({game.status})")
    phase = last_phase(uow, game)
    if phase is None:
        raise DomainError("no_open_step", f"game '{game.name}' has no open step")
    view = tally_view(game, current_state(game, phase))
    if "error" in view:
        raise DomainError("tally_impossible", view["error"])
    if game.status != GameStatus.FINISHED:
        cfg = cfg_of(game)
        cfg["tally"] = True
        save_cfg(game, cfg)
        audit(uow, actor, game, "dod3_gm", entry="TALLY")
    return TallyOutcome(tally=view, finished=game.status == GameStatus.FINISHED)
