"""The set-up of a DoD III game: what the GM enters before the start (rule 3.1 players, each
power's starting numbers, option costs, the weather chart, bid modifiers, options 4.1 and 8.6).

Frozen dataclasses with ``to_dict``/``from_dict``; numbers are exact."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .exact import parse_number, to_json_number
from .initiative import DEFAULT_BID_MODIFIERS
from .political import option_family
from .powers import DEFAULT_OBJECTIVES_NEEDED, INITIAL_TRACK, grouping_preset, normalise_power, normalise_powers
from .turns import MONTH_PAIRS

__all__ = ["DEFAULT_OPTION_COSTS", "HIDDEN_PE_AT_START", "GameOptions", "GameSetup", "PowerSetup",
           "players_from_preset"]

# The only option cost the draft prints: IPO 2 "is doubled to 8 money" for two resources.
DEFAULT_OPTION_COSTS: dict[str, int] = {"IPO 2": 4}

# Rule 3.2: "Turn the USA & USSR political effectiveness (PE) markers face down (see IPO 15)."
HIDDEN_PE_AT_START = ("US", "RU")


def _num_or_none(value: Any) -> Fraction | None:
    return None if value is None else parse_number(value)


@dataclass(frozen=True)
class GameOptions:
    bitter_end: bool = False  # option 4.1
    rule_8_6: bool = False  # optional rule 8.6: MP 0 not counted in the end roll

    def to_dict(self) -> dict[str, Any]:
        return {"bitter_end": self.bitter_end, "rule_8_6": self.rule_8_6}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> GameOptions:
        data = data or {}
        return cls(bitter_end=bool(data.get("bitter_end", False)), rule_8_6=bool(data.get("rule_8_6", False)))


@dataclass(frozen=True)
class PowerSetup:
    """GM-entered starting numbers of one power (the draft's set-up charts are missing)."""

    power: str
    pe: Fraction = Fraction(0)
    money: Fraction = Fraction(0)
    credit_limit: Fraction = Fraction(0)  # the maximum debt, as a positive number
    bid_points: Fraction = Fraction(0)
    objectives: Fraction = Fraction(0)
    objectives_needed: Fraction | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "power": self.power,
            "pe": to_json_number(self.pe),
            "money": to_json_number(self.money),
            "credit_limit": to_json_number(self.credit_limit),
            "bid_points": to_json_number(self.bid_points),
            "objectives": to_json_number(self.objectives),
            "objectives_needed": None if self.objectives_needed is None else to_json_number(self.objectives_needed),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PowerSetup:
        power = normalise_power(data["power"])
        needed = data.get("objectives_needed", DEFAULT_OBJECTIVES_NEEDED[power])
        return cls(
            power=power,
            pe=parse_number(data.get("pe", 0)),
            money=parse_number(data.get("money", 0)),
            credit_limit=parse_number(data.get("credit_limit", 0)),
            bid_points=parse_number(data.get("bid_points", 0)),
            objectives=parse_number(data.get("objectives", 0)),
            objectives_needed=_num_or_none(needed),
        )


@dataclass(frozen=True)
class GameSetup:
    game_id: str
    players: tuple[tuple[str, tuple[str, ...]], ...]
    powers: tuple[PowerSetup, ...]
    option_costs: tuple[tuple[str, Fraction], ...] = ()  # option family ("IPO 2", "GE 4") -> cost
    weather_chart: tuple[tuple[str, tuple[str, ...]], ...] = ()  # "Sep/Oct" -> results for die 1..10
    bid_modifiers: tuple[Fraction, ...] = tuple(Fraction(m) for m in DEFAULT_BID_MODIFIERS)
    initial_track: tuple[str, ...] = INITIAL_TRACK
    options: GameOptions = GameOptions()

    def __post_init__(self) -> None:
        seen: dict[str, str] = {}
        for player, powers in self.players:
            for power in powers:
                if power in seen:
                    raise ValueError(f"{power} is played by both {seen[power]} and {player}")
                seen[power] = player
        setup_powers = {item.power for item in self.powers}
        if set(seen) != setup_powers or set(self.initial_track) != setup_powers:
            raise ValueError("the players, the powers' set-up and the initiative track must list the same powers")
        if len(self.bid_modifiers) < len(self.initial_track):
            raise ValueError("a bid modifier is needed for every position on the track")

    def player_of(self, power: str) -> str:
        code = normalise_power(power)
        for player, powers in self.players:
            if code in powers:
                return player
        raise KeyError(code)

    def option_cost(self, option: str) -> Fraction | None:
        family = option_family(option)
        for name, cost in self.option_costs:
            if name == family:
                return cost
        return None

    def objectives_needed(self) -> dict[str, Fraction | None]:
        return {item.power: item.objectives_needed for item in self.powers}

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "players": {player: list(powers) for player, powers in self.players},
            "powers": [item.to_dict() for item in self.powers],
            "option_costs": {name: to_json_number(cost) for name, cost in self.option_costs},
            "weather_chart": {months: list(results) for months, results in self.weather_chart},
            "bid_modifiers": [to_json_number(m) for m in self.bid_modifiers],
            "initial_track": list(self.initial_track),
            "options": self.options.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSetup:
        players_raw = data.get("players")
        if players_raw is None and data.get("preset") is not None:
            players = players_from_preset(str(data["preset"]), soviet_with=data.get("soviet_with"))
        elif isinstance(players_raw, Mapping):
            players = tuple((str(name), normalise_powers(powers)) for name, powers in players_raw.items())
        elif players_raw is None:
            players = tuple((power, (power,)) for power in INITIAL_TRACK)
        else:
            raise ValueError("players: a mapping of player name -> powers")
        powers_raw = data.get("powers")
        if powers_raw is None:
            powers = tuple(PowerSetup.from_dict({"power": power}) for power in INITIAL_TRACK)
        elif isinstance(powers_raw, Mapping):
            powers = tuple(PowerSetup.from_dict({"power": power, **dict(values)}) for power, values in powers_raw.items())
        else:
            powers = tuple(PowerSetup.from_dict(item) for item in powers_raw)
        chart = data.get("weather_chart") or {}
        weather = []
        for months, results in chart.items():
            if months not in MONTH_PAIRS:
                raise ValueError(f"weather chart: {months!r} is not one of {', '.join(MONTH_PAIRS)}")
            if len(results) != 10:
                raise ValueError(f"weather chart {months}: give 10 results, for die rolls 1 to 10")
            weather.append((months, tuple(str(r) for r in results)))
        return cls(
            game_id=str(data["game_id"]),
            players=players,
            powers=powers,
            option_costs=tuple(
                (option_family(name), parse_number(cost))
                for name, cost in {**DEFAULT_OPTION_COSTS, **dict(data.get("option_costs") or {})}.items()
            ),
            weather_chart=tuple(weather),
            bid_modifiers=tuple(parse_number(m) for m in data.get("bid_modifiers", DEFAULT_BID_MODIFIERS)),
            initial_track=normalise_powers(data.get("initial_track", INITIAL_TRACK)),
            options=GameOptions.from_dict(data.get("options")),
        )


def players_from_preset(preset: str, *, soviet_with: str | None = None,
                        names: Sequence[str] | None = None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Players for a rule 3.1 grouping; players are named by their powers ("CW+FR") unless names are given."""
    groups = grouping_preset(preset, soviet_with=soviet_with)
    if names is not None and len(names) != len(groups):
        raise ValueError(f"grouping {preset} has {len(groups)} players, {len(names)} names given")
    return tuple(
        ((names[i] if names is not None else "+".join(group)), tuple(group)) for i, group in enumerate(groups)
    )
