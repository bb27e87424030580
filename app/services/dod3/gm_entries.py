"""The GM's entries during a DoD III game: what the missing charts decide (numbers, wars,
conquest, face-down PE, option effects, the record, the weather), and DOD3 PROCESS.

Numbers (rule 13 of issue 9): ``+N`` / ``-N`` add to the current value, a bare number sets it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from typing import Any

from app.db.models import Game, Phase
from app.db.statuses import GameStatus
from app.dod3.exact import to_json_number
from app.dod3.powers import normalise_powers
from app.dod3.state import GameState, advance, gm_adjust, record_weather
from app.dod3.turns import turn_label
from app.services.errors import DomainError
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.outcome import ProcessError, TurnOutcome, bump_version
from app.services.kernel.uow import UnitOfWork

from .mailing import Line, send_notice
from .steps import finish, process_turn, run_on
from .store import cfg_of, current_state, dump, gm_game_for, name, open_phase, power_code, save_cfg, step_of

__all__ = ["EffectRecorded", "NumberChanged", "NumberEntry", "PowerField", "Recorded", "StateChanged",
           "change_number", "process_now", "record_effect", "record_text", "record_weather_result", "set_conquered",
           "set_pe_hidden", "set_war"]


class PowerField(str, Enum):
    """A power's number the GM enters; the value is the state's field name."""

    PE = "pe"
    PEMOD = "pe_modifier"
    MONEY = "money"
    CREDIT = "credit_limit"
    BIDPOINTS = "bid_points"
    OBJECTIVES = "objectives"
    USENTRY = "us_entry"


SETUP_FIELDS = (PowerField.PE, PowerField.MONEY, PowerField.CREDIT, PowerField.BIDPOINTS, PowerField.OBJECTIVES)


@dataclass(frozen=True)
class NumberEntry:
    """``+2`` / ``-1/2`` (relative: added) or ``4`` (absolute: set)."""

    value: Fraction
    relative: bool = False

    def applied_to(self, old: Fraction) -> Fraction:
        return old + self.value if self.relative else self.value


@dataclass(frozen=True)
class NumberChanged:
    power: str
    field: PowerField
    old: Fraction
    new: Fraction
    entry: NumberEntry
    setup: bool  # before the start: the set-up's starting number


def _running(uow: UnitOfWork, actor: Actor) -> tuple[Game, Phase, GameState]:
    game = gm_game_for(uow, actor)
    phase = open_phase(uow, game)
    return game, phase, current_state(game, phase)


def _store(uow: UnitOfWork, game: Game, phase: Phase, actor: Actor, after: GameState, entry: str, **detail: Any) -> None:
    phase.state_after = dump(after)
    audit(uow, actor, game, "dod3_gm", entry=entry, **detail)


def change_number(judge: Judge, uow: UnitOfWork, actor: Actor, power: str, field: PowerField,
                  entry: NumberEntry) -> NumberChanged:
    """``DOD3 MONEY GE +2``: before the start it changes the set-up, afterwards the running state."""
    game = gm_game_for(uow, actor)
    code = power_code(power)
    detail: dict[str, Any] = {"power": code, "value": to_json_number(entry.value), "relative": entry.relative}
    if game.status == GameStatus.FORMING:
        if field not in SETUP_FIELDS:
            raise DomainError("setup_field", f"before the start only PE, money, credit, bid points and objectives "
                                             f"are set (not {field.name.lower()})", field=field.name)
        cfg = cfg_of(game)
        item = next(i for i in cfg["setup"]["powers"] if i["power"] == code)
        old = Fraction(str(item.get(field.value, 0)))
        new = entry.applied_to(old)
        item[field.value] = to_json_number(new)
        save_cfg(game, cfg)
        audit(uow, actor, game, "dod3_setup", entry=field.name, **detail)
        return NumberChanged(code, field, old, new, entry, setup=True)
    game, phase, state = _running(uow, actor)
    old = getattr(state.power(code), field.value)
    new = entry.applied_to(old)
    try:
        after = gm_adjust(state, code, **{field.value: new - old})
    except ValueError as error:
        raise DomainError("bad_number", str(error).strip("'\"")) from error
    _store(uow, game, phase, actor, after, field.name, **detail)
    return NumberChanged(code, field, old, new, entry, setup=False)


@dataclass(frozen=True)
class StateChanged:
    power: str
    others: tuple[str, ...] = ()  # the enemies of a WAR entry
    on: bool = True  # at war / conquered / face down (False: peace / not conquered / face up)


def set_war(judge: Judge, uow: UnitOfWork, actor: Actor, power: str, enemies: list[str], *, at_war: bool) -> StateChanged:
    """``DOD3 WAR <power> <enemy>...`` (at war, both ways) or ``DOD3 WAR <power> PEACE <enemy>...``."""
    game, phase, state = _running(uow, actor)
    code = power_code(power)
    try:
        others = normalise_powers(enemies)
    except ValueError as error:
        raise DomainError("unknown_power", str(error).strip("'\"")) from error
    if code in others:
        raise DomainError("bad_war", "a power cannot be at war with itself")
    if at_war:
        after = gm_adjust(state, code, at_war_with=list(dict.fromkeys(state.power(code).at_war_with + others)))
        for enemy in others:
            if code not in after.power(enemy).at_war_with:
                after = gm_adjust(after, enemy, at_war_with=list(after.power(enemy).at_war_with) + [code])
    else:
        after = gm_adjust(state, code, at_war_with=[p for p in state.power(code).at_war_with if p not in others])
        for enemy in others:
            after = gm_adjust(after, enemy, at_war_with=[p for p in after.power(enemy).at_war_with if p != code])
    _store(uow, game, phase, actor, after, "WAR", power=code, others=list(others), at_war=at_war)
    return StateChanged(code, tuple(others), at_war)


def set_conquered(judge: Judge, uow: UnitOfWork, actor: Actor, power: str, conquered: bool) -> StateChanged:
    game, phase, state = _running(uow, actor)
    code = power_code(power)
    _store(uow, game, phase, actor, gm_adjust(state, code, conquered=conquered), "CONQUERED", power=code,
           value=conquered)
    return StateChanged(code, (), conquered)


def set_pe_hidden(judge: Judge, uow: UnitOfWork, actor: Actor, power: str, hidden: bool) -> StateChanged:
    game, phase, state = _running(uow, actor)
    code = power_code(power)
    _store(uow, game, phase, actor, gm_adjust(state, code, pe_hidden=hidden), "PEHIDDEN", power=code, value=hidden)
    return StateChanged(code, (), hidden)


@dataclass(frozen=True)
class EffectRecorded:
    power: str
    option: str


def record_effect(judge: Judge, uow: UnitOfWork, actor: Actor, power: str | None, text: str) -> EffectRecorded:
    """``DOD3 EFFECT [<power>] <text>``: the effects of the latest option (of that power) this turn."""
    game, phase, state = _running(uow, actor)
    political = state.political
    if political is None or not political.plays:
        raise DomainError("no_option", "no option has been played this turn")
    plays = list(political.plays)
    index = len(plays) - 1
    if power is not None:
        code = power_code(power)
        matches = [i for i, play in enumerate(plays) if play.power == code]
        if not matches:
            raise DomainError("no_option", f"{name(code)} has played no option this turn")
        index = matches[-1]
    if not text.strip():
        raise DomainError("usage", "say what the option's effect is", usage="effect")
    play = plays[index]
    plays[index] = replace(play, effects=(play.effects + " " if play.effects else "") + text.strip())
    after = replace(state, political=replace(political, plays=tuple(plays)))
    after = after.note(f"GM: {play.power} {play.option}: {text.strip()}")
    _store(uow, game, phase, actor, after, "EFFECT", power=play.power, text=text)
    return EffectRecorded(play.power, play.option)


@dataclass(frozen=True)
class Recorded:
    text: str


def record_text(judge: Judge, uow: UnitOfWork, actor: Actor, text: str) -> Recorded:
    """``DOD3 RECORD <text>``: military affairs, production, conquest... for the report."""
    if not text.strip():
        raise DomainError("usage", "say what to record", usage="record")
    game, phase, state = _running(uow, actor)
    _store(uow, game, phase, actor, state.note(f"GM: {text.strip()}"), "RECORD", text=text)
    return Recorded(text.strip())


def record_weather_result(judge: Judge, uow: UnitOfWork, actor: Actor, text: str) -> Recorded:
    """``DOD3 WEATHER <result>`` in step B (no chart column for these months)."""
    game, phase, state = _running(uow, actor)
    if step_of(phase.code) != "B":
        raise DomainError("wrong_step", f"the weather is entered in step B; this is {phase.code}")
    if not text.strip():
        raise DomainError("usage", "say what the weather is", usage="weather")
    try:
        bump_version(uow, game)
    except ProcessError as error:
        raise DomainError("stale_game", str(error)) from error
    after = record_weather(state, result=text.strip())
    finish(uow, judge, phase, after, {"weather": text.strip()}, f"Weather: {text.strip()}")
    events: list[Line] = []
    opened = run_on(uow, judge, game, advance(after), events)
    send_notice(uow, judge, game, f"weather {turn_label(state.turn)}", [("Weather", [text.strip(), *events])], opened)
    audit(uow, actor, game, "dod3_gm", entry="WEATHER", args=[text])
    return Recorded(text.strip())


def process_now(judge: Judge, uow: UnitOfWork, actor: Actor, expected: str | None = None) -> TurnOutcome:
    """``DOD3 PROCESS [<step>]``: close the open step now (steps E-I: end the turn)."""
    game = gm_game_for(uow, actor)
    open_phase(uow, game)
    try:
        outcome = process_turn(uow, judge, game, expected_phase=expected)
    except ProcessError as error:
        raise DomainError("process", str(error)) from error
    audit(uow, actor, game, "process", phase=outcome.phase)
    return outcome
