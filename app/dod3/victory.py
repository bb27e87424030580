"""Rule 4: the object of the game, the end of the game and the victory tally.

* Objectives controlled by each power are entered by the GM (the map is not
  part of the judge). Objectives in neutral minors go to the power with the
  closest home capital, counted in sea areas/territories that the GM enters;
  equidistant objectives are shared (half each for two powers; the draft only
  speaks of two, so for three or more each gets an equal share).
* Each ideology's net total is its powers' objectives minus its total needed
  (by default the sum of its powers' needed totals). The highest net total
  wins; ties win jointly.
* Within the winning ideology(ies), each player's net is the objectives of
  its powers there minus their needed totals; the highest net wins (ties
  are joint winners). Comparisons use exact values; rounded values (rule 1.1)
  are reported alongside.
* Option 4.1 (Bitter end): play goes on until all the powers of two ideologies
  are completely conquered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .exact import NumberInput, parse_number, parse_whole, round_rule, to_json_number
from .powers import (
    DEFAULT_OBJECTIVES_NEEDED,
    ideology_members,
    normalise_power,
    normalise_powers,
)

__all__ = [
    "TOTAL_OBJECTIVES",
    "NeutralObjective",
    "credit_neutral_objective",
    "IdeologyTally",
    "PlayerTally",
    "VictoryResult",
    "victory_tally",
    "game_end_reasons",
]

TOTAL_OBJECTIVES = 67


@dataclass(frozen=True)
class NeutralObjective:
    """An objective in a neutral minor: either the GM-entered distances (sea areas and
    territories) from it to each power's home capital, or the powers it is nearest to."""

    name: str
    distances: tuple[tuple[str, int], ...] = ()
    nearest: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NeutralObjective:
        name = str(data.get("name", "?"))
        distances = tuple(
            (normalise_power(power), parse_whole(value, what=f"{name} distance to {power}"))
            for power, value in (data.get("distances") or {}).items()
        )
        nearest_raw = data.get("nearest") or ()
        if isinstance(nearest_raw, str):
            nearest_raw = [nearest_raw]
        nearest = normalise_powers(nearest_raw)
        if not distances and not nearest:
            raise ValueError(f"neutral objective {name}: give 'distances' or 'nearest'")
        return cls(name=name, distances=distances, nearest=nearest)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name}
        if self.distances:
            data["distances"] = dict(self.distances)
        if self.nearest:
            data["nearest"] = list(self.nearest)
        return data


def credit_neutral_objective(objective: NeutralObjective) -> dict[str, Fraction]:
    """Which powers an objective in a neutral minor counts for, and how much."""
    if objective.nearest:
        closest = list(objective.nearest)
    else:
        shortest = min(distance for _, distance in objective.distances)
        closest = [power for power, distance in objective.distances if distance == shortest]
    share = Fraction(1, len(closest))
    return {power: share for power in closest}


@dataclass(frozen=True)
class IdeologyTally:
    ideology: str
    members: tuple[str, ...]
    objectives: Fraction
    needed: Fraction
    net: Fraction
    winner: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "ideology": self.ideology,
            "members": list(self.members),
            "objectives": to_json_number(self.objectives),
            "needed": to_json_number(self.needed),
            "net": to_json_number(self.net),
            "net_rounded": round_rule(self.net),
            "winner": self.winner,
        }


@dataclass(frozen=True)
class PlayerTally:
    player: str
    powers: tuple[str, ...]  # the player's powers in a winning ideology
    objectives: Fraction
    needed: Fraction
    net: Fraction
    winner: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "powers": list(self.powers),
            "objectives": to_json_number(self.objectives),
            "objectives_rounded": round_rule(self.objectives),
            "needed": to_json_number(self.needed),
            "net": to_json_number(self.net),
            "net_rounded": round_rule(self.net),
            "winner": self.winner,
        }


@dataclass(frozen=True)
class VictoryResult:
    power_objectives: tuple[tuple[str, Fraction], ...]
    neutral_credits: tuple[tuple[str, tuple[tuple[str, Fraction], ...]], ...]
    ideologies: tuple[IdeologyTally, ...]
    winning_ideologies: tuple[str, ...]
    players: tuple[PlayerTally, ...]
    winning_players: tuple[str, ...]

    @property
    def winning_player(self) -> str | None:
        return self.winning_players[0] if len(self.winning_players) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "power_objectives": {power: to_json_number(total) for power, total in self.power_objectives},
            "neutral_credits": {
                name: {power: to_json_number(share) for power, share in credits}
                for name, credits in self.neutral_credits
            },
            "ideologies": {tally.ideology: tally.to_dict() for tally in self.ideologies},
            "net": {tally.ideology: to_json_number(tally.net) for tally in self.ideologies},
            "winning_ideologies": list(self.winning_ideologies),
            "players": [tally.to_dict() for tally in self.players],
            "winning_players": list(self.winning_players),
            "winning_player": self.winning_player,
        }


def victory_tally(
    objectives: Mapping[str, NumberInput],
    needed: Mapping[str, NumberInput | None] | None = None,
    neutral: Iterable[NeutralObjective | Mapping[str, Any]] = (),
    ideologies: Mapping[str, Iterable[str]] | None = None,
    ideology_needed: Mapping[str, NumberInput] | None = None,
    players: Mapping[str, Iterable[str]] | None = None,
) -> VictoryResult:
    """The rule 4 tally. objectives: per power, controlled (whole or fractional).
    needed: per power totals needed (defaults to DEFAULT_OBJECTIVES_NEEDED for
    powers not given). players: player -> powers (default: one player per power)."""
    members = ideology_members(ideologies)
    all_powers = [power for group in members.values() for power in group]

    totals: dict[str, Fraction] = {power: Fraction(0) for power in all_powers}
    for power, value in objectives.items():
        code = normalise_power(power)
        if code not in totals:
            raise ValueError(f"{code} is in no ideology")
        amount = parse_number(value, what=f"{code} objectives")
        if amount < 0:
            raise ValueError(f"{code}: objectives cannot be negative")
        totals[code] += amount

    credits_out = []
    for item in neutral:
        objective = item if isinstance(item, NeutralObjective) else NeutralObjective.from_dict(item)
        credits = credit_neutral_objective(objective)
        for power, share in credits.items():
            if power not in totals:
                raise ValueError(f"{power} is in no ideology")
            totals[power] += share
        credits_out.append((objective.name, tuple(credits.items())))

    need: dict[str, Fraction | None] = dict(DEFAULT_OBJECTIVES_NEEDED)
    for power, given in (needed or {}).items():
        code = normalise_power(power)
        need[code] = None if given is None else parse_number(given, what=f"{code} objectives needed")
    explicit_ideology_need = {
        str(name): parse_number(value, what=f"{name} objectives needed") for name, value in (ideology_needed or {}).items()
    }
    unknown_ideologies = set(explicit_ideology_need) - set(members)
    if unknown_ideologies:
        raise ValueError(f"unknown ideology: {', '.join(sorted(unknown_ideologies))}")

    def power_need(power: str) -> Fraction:
        value = need.get(power)
        if value is None:
            raise ValueError(f"the objectives needed by {power} are not printed in the draft: the GM must enter them")
        return value

    ideology_rows = []
    for ideology, group in members.items():
        held = sum((totals[power] for power in group), Fraction(0))
        if ideology in explicit_ideology_need:
            required = explicit_ideology_need[ideology]
        else:
            required = sum((power_need(power) for power in group), Fraction(0))
        ideology_rows.append((ideology, group, held, required, held - required))
    best = max(row[4] for row in ideology_rows)
    ideology_tallies = tuple(
        IdeologyTally(ideology, group, held, required, net, net == best)
        for ideology, group, held, required, net in ideology_rows
    )
    winners = tuple(tally.ideology for tally in ideology_tallies if tally.winner)
    winning_powers = {power for tally in ideology_tallies if tally.winner for power in tally.members}

    player_map: dict[str, tuple[str, ...]]
    if players is None:
        player_map = {power: (power,) for power in all_powers}
    else:
        player_map = {str(name): normalise_powers(powers) for name, powers in players.items()}
        seen: dict[str, str] = {}
        for name, powers in player_map.items():
            for power in powers:
                if power in seen:
                    raise ValueError(f"{power} is played by both {seen[power]} and {name}")
                seen[power] = name

    player_rows = []
    for name, powers in player_map.items():
        counted = tuple(power for power in powers if power in winning_powers)
        if not counted:
            continue
        held = sum((totals[power] for power in counted), Fraction(0))
        required = sum((power_need(power) for power in counted), Fraction(0))
        player_rows.append((name, counted, held, required, held - required))
    best_player = max((row[4] for row in player_rows), default=None)
    player_tallies = tuple(
        PlayerTally(name, counted, held, required, net, net == best_player)
        for name, counted, held, required, net in player_rows
    )
    return VictoryResult(
        power_objectives=tuple(totals.items()),
        neutral_credits=tuple(credits_out),
        ideologies=ideology_tallies,
        winning_ideologies=winners,
        players=player_tallies,
        winning_players=tuple(tally.player for tally in player_tallies if tally.winner),
    )


def game_end_reasons(
    conquered: Iterable[str],
    objectives: Mapping[str, NumberInput] | None = None,
    ideology_needed: Mapping[str, NumberInput] | None = None,
    last_turn: bool = False,
    bitter_end: bool = False,
    ideologies: Mapping[str, Iterable[str]] | None = None,
) -> tuple[str, ...]:
    """Why the game ends now (empty: it goes on). Rule 4: an ideology wholly
    conquered; an ideology's powers together control the objectives it needs;
    the end of the Nov/Dec 1946 turn. With option 4.1 (Bitter end) only the
    complete conquest of two ideologies ends it."""
    members = ideology_members(ideologies)
    down = set(normalise_powers(conquered))
    fallen = [name for name, group in members.items() if group and set(group) <= down]
    if bitter_end:
        if len(fallen) >= 2:
            return (f"all the major powers of {' and '.join(fallen)} have been conquered (Bitter end)",)
        return ()
    reasons = [f"all the major powers of {name} have been conquered" for name in fallen]
    if objectives is not None and ideology_needed is not None:
        held = {normalise_power(power): parse_number(value) for power, value in objectives.items()}
        for name, required in ideology_needed.items():
            group = members.get(str(name), ())
            total = sum((held.get(power, Fraction(0)) for power in group), Fraction(0))
            if total >= parse_number(required):
                reasons.append(f"the {name} control the {to_json_number(required)} objectives they need")
    if last_turn:
        reasons.append("the Nov/Dec 1946 turn has ended")
    return tuple(reasons)
