"""Where a DoD III game keeps its set-up, its running state and its dice.

``game.settings["dod3"]`` holds the GM-entered set-up (``GameSetup.to_dict()``), the step
deadlines in hours, the neutral objectives, the tally flag and the current turn's dice (the
seed stays secret until the turn ends). Every step is a ``Phase`` row whose ``state_before`` /
``state_after`` are ``GameState.to_dict()``; while a row is open its ``state_after`` is the
running state (GM entries land there).
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy import func, select

from app.db import queries
from app.db.models import Game, Phase, Player
from app.db.statuses import RUNNING, SeatStatus
from app.dod3.dice import DiceRoller, generate_seed
from app.dod3.powers import normalise_power
from app.dod3.state import GameSetup, GameState
from app.dod3.turns import turn_key
from app.dod3.variant import SHORT_NAMES, VARIANT
from app.services.errors import DomainError
from app.services.kernel.access import actor_game, require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.uow import UnitOfWork

__all__ = [
    "DEFAULT_HOURS",
    "LISTENING",
    "ROLE",
    "cfg_of",
    "current_state",
    "dump",
    "ensure_dice",
    "game_for",
    "gm_game_for",
    "hours_for",
    "is_dod3",
    "last_phase",
    "load",
    "name",
    "next_seq",
    "open_phase",
    "power_code",
    "roller_of",
    "save_cfg",
    "save_roller",
    "seat_of",
    "setup_of",
    "step_code",
    "step_of",
    "turn_code",
]

ROLE = "dod3"
DEFAULT_HOURS: dict[str, float] = {"bids": 48.0, "movedown": 12.0, "weather": 24.0, "option": 24.0, "gm": 72.0}
LISTENING = (SeatStatus.ACTIVE, SeatStatus.ABSENT, SeatStatus.CD)
_PAIR_CODES = ("JF", "MA", "MJ", "JA", "SO", "ND")
_HOURS_OF_STEP = {"A": "bids", "AM": "movedown", "B": "weather", "C": "option", "E": "gm"}


def turn_code(turn: int) -> str:
    """0 -> ``JF1936`` (Jan/Feb 1936)."""
    return f"{_PAIR_CODES[turn % 6]}{1936 + turn // 6}"


def step_code(turn: int, step: str) -> str:
    return turn_code(turn) + step


def step_of(code: str) -> str:
    """``MA1936C3`` -> ``C3``."""
    return code[6:]


def name(power: str) -> str:
    return SHORT_NAMES.get(power, power)


def power_code(text: str) -> str:
    """``GE`` / ``Germany`` / ``ussr`` -> the power's code; refused when unknown."""
    try:
        return normalise_power(text)
    except ValueError as error:
        raise DomainError("unknown_power", str(error).strip("'\"")) from error


def is_dod3(game: Game | None) -> bool:
    return game is not None and game.variant == VARIANT


def cfg_of(game: Game) -> dict[str, Any]:
    cfg = copy.deepcopy(dict((game.settings or {}).get("dod3") or {}))  # a change must be a new value
    if "setup" not in cfg:
        raise DomainError("dod3_no_setup", f"game '{game.name}' has no Days of Decision III set-up",
                          game=game.name)
    return cfg


def save_cfg(game: Game, cfg: dict[str, Any]) -> None:
    game.settings = {**(game.settings or {}), "dod3": cfg}


def setup_of(game: Game) -> GameSetup:
    return GameSetup.from_dict(cfg_of(game)["setup"])


def hours_for(game: Game, step: str) -> float:
    key = _HOURS_OF_STEP.get(step[:2] if step.startswith("AM") else step[:1], "gm")
    return float({**DEFAULT_HOURS, **(cfg_of(game).get("hours") or {})}[key])


def dump(state: GameState) -> dict[str, Any]:
    data = state.to_dict()
    data["variant"] = VARIANT
    return data


def load(game: Game, data: Mapping[str, Any]) -> GameState:
    return GameState.from_dict({**data, "setup": cfg_of(game)["setup"]})


def current_state(game: Game, phase: Phase) -> GameState:
    """The running state of an open step (GM entries included), or the state after a processed one."""
    data = phase.state_after if phase.state_after else phase.state_before
    return load(game, data)


def game_for(uow: UnitOfWork, actor: Actor) -> Game:
    """The DoD III game the actor is signed on to."""
    game = actor_game(uow, actor)
    if not is_dod3(game):
        raise DomainError("not_dod3", f"game '{game.name}' is not a Days of Decision III game")
    return game


def gm_game_for(uow: UnitOfWork, actor: Actor) -> Game:
    """The DoD III game the actor is signed on to, if it is its master (or the judgekeeper)."""
    game = game_for(uow, actor)
    require_gm(actor, game)
    return game


def open_phase(uow: UnitOfWork, game: Game) -> Phase:
    db = uow.session
    if not is_dod3(game):
        raise DomainError("not_dod3", f"game '{game.name}' is not a Days of Decision III game")
    if game.status not in RUNNING:
        raise DomainError("not_running", f"game '{game.name}' is not running ({game.status})")
    phase = queries.open_phase(db, game.id)
    if phase is None:
        raise DomainError("no_open_step", f"game '{game.name}' has no open step")
    return phase


def last_phase(uow: UnitOfWork, game: Game) -> Phase | None:
    """The open step, or the last processed one (a finished game still has its final state)."""
    db = uow.session
    phase = queries.open_phase(db, game.id)
    if phase is not None:
        return phase
    phases = [p for p in queries.phases_of(db, game.id) if p.state_after or p.state_before]
    return phases[-1] if phases else None


def next_seq(uow: UnitOfWork, game: Game) -> int:
    db = uow.session
    return int(db.scalar(select(func.max(Phase.seq)).where(Phase.game_id == game.id)) or 0) + 1


def seat_of(uow: UnitOfWork, game: Game, power: str) -> Player | None:
    db = uow.session
    return queries.seat_for_power(db, game.id, power)


# -- dice ------------------------------------------------------------------------------------


def roller_of(game: Game) -> DiceRoller:
    return DiceRoller.from_dict(cfg_of(game)["dice"])


def save_roller(game: Game, roller: DiceRoller) -> None:
    cfg = cfg_of(game)
    cfg["dice"] = roller.to_dict(reveal=True)
    save_cfg(game, cfg)


def new_seed() -> str:
    """The secret seed of a turn. Tests replace ``app.services.dod3.store.generate_seed`` to choose it."""
    return str(generate_seed(secrets.token_bytes))


def ensure_dice(game: Game, state: GameState) -> GameState:
    """A new committed seed for each turn, drawn before anything of the turn is known."""
    cfg = cfg_of(game)
    key = turn_key(state.turn)
    dice = cfg.get("dice")
    if not dice or dice.get("turn") != key:
        roller = DiceRoller(seed=new_seed(), game=game.name, turn=key)
        save_roller(game, roller)
        return replace(state, dice_commitment=roller.commitment)
    if state.dice_commitment is None:
        return replace(state, dice_commitment=dice["commitment"])
    return state
