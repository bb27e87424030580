"""Political affairs by mail: a player names his option or passes; options that need a die roll
(IPO 3) or another power's approval are pending until the GM settles them (rule 8.4): the cost
is paid only if the option succeeds, and one still unsettled at the end of the turn fails."""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.db.models import Game, Phase
from app.dod3.exact import format_number
from app.dod3.political import EndRoll, OptionPlay, PlayStatus, option_family
from app.dod3.report import play_line, roll_lines
from app.dod3.state import GameState, choose_option, roll_political_end, settle_option
from app.services.errors import DomainError
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_master

from .mailing import deadline_text
from .player_commands import claim, own_power
from .steps import after_slot
from .store import current_state, dump, gm_game_for, name, open_phase, power_code, roller_of, save_roller, step_of

__all__ = ["DIE_ROLL_OPTIONS", "OptionOutcome", "Settled", "play_option", "settle_pending"]

DIE_ROLL_OPTIONS = ("IPO 3",)  # 8.4: "In the case of IPO 3, the option is unsuccessful if the required die roll fails"


@dataclass(frozen=True)
class OptionOutcome:
    power: str
    play: OptionPlay | None  # None: the power passed
    roll: EndRoll | None
    roll_counter: int | None  # the die's number in this turn's committed dice
    option_die: int | None = None  # the judge's roll for a die-roll option (IPO 3), for the GM to settle


def _state_for_option(uow: UnitOfWork, actor: Actor, power: str) -> tuple[Game, Phase, GameState, str]:
    game, code = own_power(uow, actor, power)
    phase = open_phase(uow, game)
    if not step_of(phase.code).startswith("C"):
        raise DomainError("wrong_step", f"options are named in political affairs; this is {phase.code}")
    state = current_state(game, phase)
    current = state.political.current_power if state.political else None
    if current != code:
        raise DomainError("not_your_turn", f"it is {name(current) if current else 'nobody'}'s turn to name an "
                                           f"option, not {name(code)}'s")
    return game, phase, state, code


def _tell_gm_of_missing_cost(uow: UnitOfWork, judge: Judge, game: Game, state: GameState, power: str,
                             option: str) -> None:
    """A player blocked by a cost the GM has not entered: the GM is mailed at once (issue 9 item 15)."""
    try:
        family = option_family(option)
    except ValueError:
        return  # not an option at all: choose_option says why
    if state.setup.option_cost(family) is not None:
        return
    mail_master(uow, judge, game, f"DoD3 {game.name}: {name(power)} waits for the cost of {family}",
                f"{name(power)} wants to play {family} in '{game.name}', but no cost has been entered for it.\n"
                f"Send DOD3 SET COST {family} <n>; {name(power)}'s player can then send the option again "
                f"(deadline {deadline_text(game, game.deadline)}).\n", kind="gm")
    raise DomainError("no_cost", f"no cost entered for {family}: the GM must give it (the GM has been told)")


def play_option(judge: Judge, uow: UnitOfWork, actor: Actor, power: str, option: str | None,
                minor: str | None = None, *, pending: bool = False) -> OptionOutcome:
    """``OPTION <power> <option> [MINOR <minor>] [PENDING]`` or, with option None, ``PASS <power>``.
    ``pending``: the option needs another power's approval (8.4); IPO 3 is always pending."""
    game, phase, state, code = _state_for_option(uow, actor, power)
    political = state.political
    if political is None:
        raise DomainError("wrong_step", "political affairs have not begun")
    claim(uow, game)
    if option is None:
        after = replace(state, political=political.pass_turn(code)).note(f"{code} passes")
        after_slot(uow, judge, game, phase, state, after, [f"{name(code)} passes."])
        audit(uow, actor, game, "dod3_option", power=code, option=None)
        return OptionOutcome(code, None, None, None)
    _tell_gm_of_missing_cost(uow, judge, game, state, code, option)
    needs_die = _family(option) in DIE_ROLL_OPTIONS
    try:
        chosen = choose_option(state, code, option, minor_activated=minor, pending=pending or needs_die)
    except ValueError as error:
        raise DomainError("bad_option", str(error).strip("'\"")) from error
    if chosen.political is None:
        raise DomainError("bad_option", "the option was not recorded")
    play = chosen.political.plays[-1]
    last_slot = chosen.political.is_last_slot
    option_die = None
    if needs_die:
        roller = roller_of(game)
        option_die = roller.roll(f"{play.option} for {code}")
        save_roller(game, roller)
        chosen = chosen.note(f"{code} {play.option}: the judge rolls d10 = {option_die} (rule 8.4)")
    if play.status == PlayStatus.PENDING:
        _tell_gm_of_pending(uow, judge, game, play, option_die)
    counter = None
    if last_slot:
        after = roll_political_end(chosen, None)
    else:
        roller = roller_of(game)
        counter = len(roller.rolls)
        die = roller.roll(f"end roll after {code} {play.option}")
        save_roller(game, roller)
        after = roll_political_end(chosen, die)
    roll = after.political.rolls[-1] if after.political else None
    lines = [play_line(play)] + ([f"The judge rolls for {play.option}: d10 = {option_die}."]
                                 if option_die is not None else [])
    lines += roll_lines(roll, None if roll.die is None else counter) if roll is not None else []
    after_slot(uow, judge, game, phase, state, after, lines)
    audit(uow, actor, game, "dod3_option", power=code, option=play.option, die=roll.die if roll else None)
    return OptionOutcome(code, play, roll, counter if roll is not None and roll.die is not None else None,
                         option_die)


def _family(option: str) -> str | None:
    try:
        return option_family(option)
    except ValueError:
        return None


def _tell_gm_of_pending(uow: UnitOfWork, judge: Judge, game: Game, play: OptionPlay, die: int | None) -> None:
    mail_master(uow, judge, game, f"DoD3 {game.name}: {name(play.power)} {play.option} is pending",
                f"{name(play.power)} plays {play.option} in '{game.name}'; it succeeds only "
                + (f"if the die roll succeeds (the judge rolled d10 = {die})" if die is not None
                   else "if the other power approves it this turn")
                + f" (rule 8.4). Settle it with DOD3 SETTLE {play.power} {play.option} YES|NO "
                  "(or CANCEL) before the end of the turn; until then its cost is not paid.\n", kind="gm")


@dataclass(frozen=True)
class Settled:
    power: str
    option: str
    succeeded: bool
    paid: str  # the cost paid (nothing when it failed)


def settle_pending(judge: Judge, uow: UnitOfWork, actor: Actor, power: str, option: str, succeeded: bool) -> Settled:
    """``DOD3 SETTLE <power> <option> YES|NO|CANCEL``: a pending option succeeds (its cost is paid
    now) or fails / is cancelled (nothing is paid)."""
    game = gm_game_for(uow, actor)
    phase = open_phase(uow, game)
    state = current_state(game, phase)
    code = power_code(power)
    try:
        after = settle_option(state, code, option, succeeded)
    except ValueError as error:
        raise DomainError("not_pending", str(error).strip("'\"")) from error
    if after.political is None:
        raise DomainError("not_pending", f"{name(code)} has no pending option")
    play = next(p for p in reversed(after.political.plays) if p.power == code
                and option_family(p.option) == option_family(option))
    phase.state_after = dump(after)
    audit(uow, actor, game, "dod3_settle", power=code, option=play.option, succeeded=succeeded)
    return Settled(code, play.option, succeeded, format_number(play.cost - play.paid_by_others) if succeeded else "0")
