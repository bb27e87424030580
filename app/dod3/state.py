"""The game state a server stores (as JSON) and the pure transitions the judge applies.

Every class is a frozen dataclass with ``to_dict``/``from_dict``; numbers are
exact (ints, terminating decimals, or "p/q" strings in JSON). Each transition
takes a state and returns a new one; nothing here reads a clock, a file or the
network, and dice come in as results rolled elsewhere (see dice.py).

What the draft does not print (option costs, credit limits, starting PE and
money, the weather chart, the objectives needed by Germany and Japan, the
option effects) is GM-entered game data, kept in :class:`GameSetup` or
applied with :func:`gm_adjust` and logged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from .bonus import BonusChange, bonus_bid_points
from .exact import NumberInput, format_number, parse_number, to_json_number
from .initiative import InitiativeResult, apply_move_downs, compute_initiative
from .political import PlayStatus, PoliticalAffairs, option_family, start_political_affairs
from .powers import (
    IDEOLOGIES,
    normalise_power,
    normalise_powers,
)
from .setup import (
    DEFAULT_OPTION_COSTS,
    HIDDEN_PE_AT_START,
    GameOptions,
    GameSetup,
    PowerSetup,
    players_from_preset,
)
from .turns import MONTH_PAIRS, Phase, is_first_turn, is_last_turn, next_step, turn_label
from .variant import SHORT_NAMES
from .victory import game_end_reasons

__all__ = [
    "DEFAULT_OPTION_COSTS",
    "HIDDEN_PE_AT_START",
    "GameOptions",
    "PowerSetup",
    "GameSetup",
    "PowerState",
    "LogEntry",
    "GameState",
    "new_game",
    "players_from_preset",
    "resolve_initiative",
    "democrat_move_downs",
    "start_political_phase",
    "choose_option",
    "settle_option",
    "roll_political_end",
    "apply_bonus_bid_points",
    "weather_result",
    "record_weather",
    "gm_adjust",
    "advance",
    "wars_summary",
]

_FIELDS_EXACT = ("pe", "pe_modifier", "money", "credit_limit", "bid_points", "objectives", "us_entry")


@dataclass(frozen=True)
class PowerState:
    power: str
    pe: Fraction = Fraction(0)
    pe_modifier: Fraction = Fraction(0)  # GM-entered modifiers (e.g. from IPO 15)
    money: Fraction = Fraction(0)
    credit_limit: Fraction = Fraction(0)
    bid_points: Fraction = Fraction(0)
    objectives: Fraction = Fraction(0)
    us_entry: Fraction = Fraction(0)  # shifts towards war with this power; fractions kept
    conquered: bool = False
    at_war_with: tuple[str, ...] = ()  # major powers
    pe_hidden: bool = False  # rule 3.2: the USA's and USSR's PE markers start face down (IPO 15)

    @property
    def modified_pe(self) -> Fraction:
        return self.pe + self.pe_modifier

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"power": self.power}
        for name in _FIELDS_EXACT:
            data[name] = to_json_number(getattr(self, name))
        data["modified_pe"] = to_json_number(self.modified_pe)
        data["conquered"] = self.conquered
        data["at_war_with"] = list(self.at_war_with)
        data["pe_hidden"] = self.pe_hidden
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PowerState:
        kwargs: dict[str, Any] = {name: parse_number(data.get(name, 0)) for name in _FIELDS_EXACT}
        return cls(
            power=normalise_power(data["power"]),
            conquered=bool(data.get("conquered", False)),
            at_war_with=normalise_powers(data.get("at_war_with", ())),
            pe_hidden=bool(data.get("pe_hidden", False)),
            **kwargs,
        )


@dataclass(frozen=True)
class LogEntry:
    turn: int
    phase: str
    text: str
    secret: bool = False  # for the GM only (e.g. a face-down PE)

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "turn_label": turn_label(self.turn), "phase": self.phase, "text": self.text,
                "secret": self.secret}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LogEntry:
        return cls(turn=int(data["turn"]), phase=str(data["phase"]), text=str(data["text"]),
                   secret=bool(data.get("secret", False)))


@dataclass(frozen=True)
class GameState:
    setup: GameSetup
    turn: int
    phase: Phase
    powers: tuple[PowerState, ...]
    track: tuple[str, ...]
    last_card: int | None = None
    initiative: InitiativeResult | None = None
    political: PoliticalAffairs | None = None
    bonus: tuple[BonusChange, ...] = ()
    weather: str | None = None
    dice_commitment: str | None = None
    log: tuple[LogEntry, ...] = ()
    ended: tuple[str, ...] = ()

    @property
    def turn_label(self) -> str:
        return turn_label(self.turn)

    @property
    def first_turn(self) -> bool:
        return is_first_turn(self.turn)

    def power(self, power: str) -> PowerState:
        code = normalise_power(power)
        for item in self.powers:
            if item.power == code:
                return item
        raise KeyError(code)

    def with_power(self, updated: PowerState) -> GameState:
        return replace(self, powers=tuple(updated if p.power == updated.power else p for p in self.powers))

    def note(self, text: str, secret: bool = False) -> GameState:
        return replace(self, log=self.log + (LogEntry(self.turn, self.phase.value, text, secret),))

    def modified_pe(self) -> dict[str, Fraction]:
        return {item.power: item.modified_pe for item in self.powers}

    def to_dict(self) -> dict[str, Any]:
        return {
            "setup": self.setup.to_dict(),
            "turn": self.turn,
            "turn_label": self.turn_label,
            "phase": self.phase.value,
            "powers": [item.to_dict() for item in self.powers],
            "track": list(self.track),
            "last_card": self.last_card,
            "initiative": None if self.initiative is None else self.initiative.to_dict(),
            "political": None if self.political is None else self.political.to_dict(),
            "bonus": [change.to_dict() for change in self.bonus],
            "weather": self.weather,
            "dice_commitment": self.dice_commitment,
            "log": [entry.to_dict() for entry in self.log],
            "ended": list(self.ended),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        return cls(
            setup=GameSetup.from_dict(data["setup"]),
            turn=int(data["turn"]),
            phase=Phase(data["phase"]),
            powers=tuple(PowerState.from_dict(item) for item in data["powers"]),
            track=normalise_powers(data["track"]),
            last_card=data.get("last_card"),
            initiative=None if data.get("initiative") is None else InitiativeResult.from_dict(data["initiative"]),
            political=None if data.get("political") is None else PoliticalAffairs.from_dict(data["political"]),
            bonus=tuple(
                BonusChange(
                    power=normalise_power(item["power"]),
                    modified_pe=parse_number(item["modified_pe"]),
                    bid_points_gained=int(item["bid_points_gained"]),
                    money_lost=int(item["money_lost"]),
                )
                for item in data.get("bonus", ())
            ),
            weather=data.get("weather"),
            dice_commitment=data.get("dice_commitment"),
            log=tuple(LogEntry.from_dict(item) for item in data.get("log", ())),
            ended=tuple(data.get("ended", ())),
        )


# ---------------------------------------------------------------------------
# transitions


def new_game(setup: GameSetup) -> GameState:
    """Jan/Feb 1936: step A is skipped, so the game opens at B (weather) on the initial track."""
    powers = tuple(
        PowerState(
            power=item.power,
            pe=item.pe,
            money=item.money,
            credit_limit=item.credit_limit,
            bid_points=item.bid_points,
            objectives=item.objectives,
            pe_hidden=item.power in HIDDEN_PE_AT_START,
        )
        for item in setup.powers
    )
    state = GameState(setup=setup, turn=0, phase=Phase.WEATHER, powers=powers, track=setup.initial_track,
                      last_card=len(setup.initial_track))
    return state.note("Game set up; initiative track " + ", ".join(setup.initial_track))


def _require(state: GameState, phase: Phase) -> None:
    if state.ended:
        raise ValueError("the game has ended")
    if state.phase != phase:
        raise ValueError(f"this is step {state.phase.value}, not {phase.value}")


def resolve_initiative(state: GameState, bids: Mapping[str, Any] | Iterable[Any]) -> GameState:
    """Step A: reveal the bids, spend them from the bid-point pools, rank the track (before move-downs)."""
    _require(state, Phase.INITIATIVE)
    if state.initiative is not None:
        raise ValueError("the bids have already been revealed this turn")
    result = compute_initiative(
        state.track,
        bids,
        modified_pe=state.modified_pe(),
        modifiers=state.setup.bid_modifiers,
        pools={item.power: item.bid_points for item in state.powers},
        absent=[item.power for item in state.powers if item.conquered],
    )
    new_state = state
    for entry in result.entries:
        if entry.bidder:
            power = new_state.power(entry.power)
            new_state = new_state.with_power(replace(power, bid_points=power.bid_points - entry.points))
    summary = "; ".join(
        f"{e.position}. {e.power} {e.points}"
        + (f" for {e.options}" if e.bidder and e.options > 1 else "")
        + f" -> {to_json_number(e.final_bid)}"
        + ("" if e.bidder else " (no bid)")
        for e in result.entries
    )
    new_state = replace(new_state, initiative=result, track=result.track, last_card=result.last_card)
    return new_state.note(f"Initiative: {summary}; last card after {result.last_card_power or 'nobody'}")


def democrat_move_downs(state: GameState, moves: Mapping[str, Any] | Iterable[Any]) -> GameState:
    """Step A: the Democrats' move-downs (all received by the sub-deadline; absent ones decline)."""
    _require(state, Phase.INITIATIVE)
    if state.initiative is None:
        raise ValueError("the bids have not been revealed yet")
    result = apply_move_downs(state.initiative, moves)
    new_state = replace(state, initiative=result, track=result.track, last_card=result.last_card)
    return new_state.note("Track after move-downs: " + ", ".join(result.track))


def start_political_phase(state: GameState) -> GameState:
    _require(state, Phase.POLITICAL_AFFAIRS)
    if state.first_turn:
        live = [power for power in state.track if not state.power(power).conquered]
        political = start_political_affairs(live, first_turn=True)
    elif state.initiative is None:
        raise ValueError("the initiative bids have not been resolved this turn")
    else:
        political = start_political_affairs(state.track, state.initiative.options_by_power())
    return replace(state, political=political)


def choose_option(
    state: GameState,
    power: str,
    option: str,
    cost: NumberInput | None = None,
    *,
    paid_by_others: NumberInput = 0,
    target: str | None = None,
    minor_activated: str | None = None,
    effects: str = "",
    pending: bool = False,
) -> GameState:
    """Step C1-C2: the current power chooses an option and pays its cost (GM-entered cost,
    or the setup's option_costs). A pending option (8.4: it needs another power's approval
    or a die roll) is paid only when settled as a success (settle_option)."""
    _require(state, Phase.POLITICAL_AFFAIRS)
    political = state.political or start_political_phase(state).political
    if political is None:
        raise ValueError("political affairs have not begun")
    code = normalise_power(power)
    if cost is None:
        cost = state.setup.option_cost(option)
        if cost is None:
            raise ValueError(f"no cost entered for {option}: the GM must give it")
    holder = state.power(code)
    political = political.choose(
        code, option, cost, money=holder.money, credit_limit=holder.credit_limit, paid_by_others=paid_by_others,
        target=target, minor_activated=minor_activated, effects=effects, pending=pending,
    )
    play = political.plays[-1]
    new_state = replace(state, political=political)
    if not pending:
        own_share = play.cost - play.paid_by_others
        new_state = new_state.with_power(replace(holder, money=holder.money - own_share))
    return new_state.note(f"{code} plays {play.option} (cost {to_json_number(play.cost)})"
                          + (" - pending" if pending else "") + (f": {effects}" if effects else ""))


def settle_option(state: GameState, power: str, option: str, succeeded: bool, effects: str | None = None) -> GameState:
    """8.4: a pending option succeeds (its cost is paid now) or fails (nothing is paid)."""
    if state.political is None:
        raise ValueError("no option has been played this turn")
    political = state.political.settle(power, option, succeeded, effects)
    play = next(p for p in political.plays if p.power == normalise_power(power)
                and option_family(p.option) == option_family(option) and p.status != PlayStatus.PENDING)
    new_state = replace(state, political=political)
    if succeeded:
        holder = new_state.power(play.power)
        new_state = new_state.with_power(replace(holder, money=holder.money - (play.cost - play.paid_by_others)))
    return new_state.note(f"{play.power} {play.option} " + ("succeeds" if succeeded else "fails"))


def fail_unsettled(state: GameState) -> GameState:
    """8.4 at the end of the turn: a pending option nobody approved (or settled) has failed."""
    new_state = state
    for play in state.political.pending if state.political else ():
        new_state = settle_option(new_state, play.power, play.option, succeeded=False)
        new_state = new_state.note(f"{SHORT_NAMES[play.power]} {play.option} was not settled this turn: it fails, "
                                   "nothing is paid")
    return new_state


def wars_summary(state: GameState) -> tuple[int, bool]:
    """(major powers at war with another major power, whether every surviving power is at war)."""
    live = [item for item in state.powers if not item.conquered]
    live_codes = {item.power for item in live}
    at_war = [item for item in live if set(item.at_war_with) & live_codes]
    return len(at_war), bool(live) and len(at_war) == len(live)


def roll_political_end(
    state: GameState,
    die: int | None,
    powers_at_war: int | None = None,
    all_at_war: bool | None = None,
) -> GameState:
    """Step C4: the end-of-political-affairs roll (wars counted from the state unless given)."""
    _require(state, Phase.POLITICAL_AFFAIRS)
    if state.political is None:
        raise ValueError("no option has been played")
    counted, everyone = wars_summary(state)
    political = state.political.roll_end(
        die,
        counted if powers_at_war is None else powers_at_war,
        everyone if all_at_war is None else all_at_war,
        rule_8_6=state.setup.options.rule_8_6,
    )
    roll = political.rolls[-1]
    if roll.automatic:
        text = "the last bidder has played its last option: political affairs end"
    else:
        text = (f"end roll {roll.die} - {roll.subtracted} + {roll.at_war_bonus + roll.all_at_war_bonus}"
                f" = {roll.modified}: " + ("political affairs end" if roll.ends else "continue"))
    return replace(state, political=political).note(text)


def apply_bonus_bid_points(state: GameState) -> GameState:
    """Step D."""
    _require(state, Phase.BONUS_BID_POINTS)
    played = state.political.powers_that_played if state.political else frozenset()
    live = {item.power: item.modified_pe for item in state.powers if not item.conquered}
    changes = bonus_bid_points(live, played)
    new_state = state
    for change in changes:
        power = new_state.power(change.power)
        new_state = new_state.with_power(
            replace(power, bid_points=power.bid_points + change.bid_points_gained, money=power.money - change.money_lost)
        )
    new_state = replace(new_state, bonus=changes)
    public = [c for c in changes if not state.power(c.power).pe_hidden]
    secret = [c for c in changes if state.power(c.power).pe_hidden]

    def describe(items: Sequence[BonusChange]) -> str:
        return "; ".join(
            f"{c.power} +{c.bid_points_gained} bid point{'' if c.bid_points_gained == 1 else 's'}" if c.money_lost == 0
            else f"{c.power} -{c.money_lost} money"
            for c in items
        )

    new_state = new_state.note("Bonus bid points: " + (describe(public) or "none"))
    if secret:
        new_state = new_state.note("Bonus bid points (PE face down): " + describe(secret), secret=True)
    return new_state


def weather_result(setup: GameSetup, turn: int, die: int) -> str:
    """The GM's weather chart, cross-indexed with the turn's months and the die."""
    months = MONTH_PAIRS[turn % len(MONTH_PAIRS)]
    for name, results in setup.weather_chart:
        if name == months:
            if not 1 <= die <= 10:
                raise ValueError(f"a d10 roll is 1 to 10, not {die}")
            return results[die - 1]
    raise ValueError(f"the GM has not entered the weather chart column for {months}")


def record_weather(state: GameState, die: int | None = None, result: str | None = None) -> GameState:
    """Step B: from the chart and a die, or a result the GM enters directly."""
    _require(state, Phase.WEATHER)
    if result is None:
        if die is None:
            raise ValueError("give the die roll or the weather")
        result = weather_result(state.setup, state.turn, die)
    return replace(state, weather=result).note(f"Weather: {result}" + (f" (die {die})" if die is not None else ""))


_FIELD_WORDS = {"pe": "PE", "pe_modifier": "PE modifier", "money": "money", "credit_limit": "credit limit",
                "bid_points": "bid points", "objectives": "objectives", "us_entry": "US entry"}


def gm_adjust(state: GameState, power: str, text: str = "", **changes: Any) -> GameState:
    """A GM entry for anything the charts decide: add amounts to pe, pe_modifier, money,
    credit_limit, bid_points, objectives, us_entry (deltas; fractions kept), or set
    conquered / at_war_with / pe_hidden. The record says it in the rulebook's words."""
    holder = state.power(power)
    updates: dict[str, Any] = {}
    parts = []
    for name, value in changes.items():
        if name in _FIELDS_EXACT:
            delta = parse_number(value, what=name)
            updates[name] = getattr(holder, name) + delta
            parts.append(f"{_FIELD_WORDS[name]} {'+' if delta >= 0 else ''}{format_number(delta)}"
                         f" (now {format_number(updates[name])})")
        elif name == "conquered":
            updates[name] = bool(value)
            parts.append("completely conquered" if value else "no longer conquered")
        elif name == "pe_hidden":
            updates[name] = bool(value)
            parts.append("PE marker face down" if value else "PE marker face up")
        elif name == "at_war_with":
            updates[name] = normalise_powers(value)
            parts.append("at war with " + (", ".join(SHORT_NAMES[p] for p in updates[name]) or "nobody"))
        else:
            raise ValueError(f"unknown field {name!r}")
    new_state = state.with_power(replace(holder, **updates))
    secret = holder.pe_hidden and bool({"pe", "pe_modifier", "bid_points"} & set(changes))
    return new_state.note(f"GM: {SHORT_NAMES[holder.power]}: " + ", ".join(parts) + (f" ({text})" if text else ""),
                          secret=secret)


def advance(state: GameState) -> GameState:
    """Go on to the next step; step I checks whether the game has ended (rule 4 / option 4.1)."""
    if state.ended:
        raise ValueError("the game has ended")
    if state.phase == Phase.INITIATIVE and state.initiative is None:
        raise ValueError("resolve the initiative bids before going on")
    if state.phase == Phase.POLITICAL_AFFAIRS and state.political is not None and state.political.awaiting_roll:
        raise ValueError("the end-of-political-affairs roll is still to be made")
    if state.phase == Phase.END_OF_TURN:
        bitter_end = state.setup.options.bitter_end
        needed_by_power = state.setup.objectives_needed()
        ideology_needed: dict[str, Fraction] = {}
        for ideology, members in IDEOLOGIES.items():
            values = [needed_by_power.get(p) for p in members if p in needed_by_power]
            present = [v for v in values if v is not None]
            if values and len(present) == len(values):
                ideology_needed[ideology] = sum(present, Fraction(0))
        reasons = game_end_reasons(
            [item.power for item in state.powers if item.conquered],
            objectives={item.power: item.objectives for item in state.powers},
            ideology_needed=ideology_needed,
            last_turn=is_last_turn(state.turn, bitter_end),
            bitter_end=bitter_end,
        )
        if reasons:
            return replace(state, ended=reasons).note("The game ends: " + "; ".join(reasons))
    turn, phase = next_step(state.turn, state.phase)
    new_state = replace(state, turn=turn, phase=phase)
    if turn != state.turn:
        new_state = replace(new_state, initiative=None, political=None, bonus=(), weather=None, dice_commitment=None)
    return new_state
