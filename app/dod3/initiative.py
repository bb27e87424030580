"""Rule 6: initiative bids, the initiative track and the Democrats' move-downs.

* Each power's bid is modified by its position on last turn's track. The
  draft's track chart is missing; the modifiers were derived from the rule 6
  example and the multi-option example (1st +4, 2nd +3, 3rd +3, 4th +2,
  5th +2, 6th +1, 7th +1, 8th 0); the GM may replace them.
* A bid for n options is (points + modifier) / n, kept as an exact fraction.
* Order: final bid (highest first); ties by current modified PE (highest
  first), then last turn's order. Powers that did not bid (0 points) come after
  every bidder, ordered among themselves the same way.
* The last-card marker goes next to the last power that bid.
* Then each Democrat, in reverse initiative order, may move down once; a
  Democrat that bid must stay above every power that did not bid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cmp_to_key
from typing import Any

from .exact import NumberInput, parse_number, parse_whole, to_json_number
from .powers import DEMOCRATS, IDEOLOGIES, normalise_power, normalise_powers

__all__ = [
    "DEFAULT_BID_MODIFIERS",
    "Bid",
    "InitiativeEntry",
    "InitiativeResult",
    "MoveDown",
    "bid_modifier",
    "final_bid",
    "compute_initiative",
    "move_down_order",
    "apply_move_downs",
]

# Bid modifier by last turn's position, 1st to 8th.
DEFAULT_BID_MODIFIERS: tuple[int, ...] = (4, 3, 3, 2, 2, 1, 1, 0)


@dataclass(frozen=True)
class Bid:
    """A revealed bid: `points` bid points for `options` options (0 points: no bid)."""

    power: str
    points: int = 0
    options: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "power", normalise_power(self.power))
        points = parse_whole(self.points, what=f"{self.power} bid")
        options = parse_whole(self.options, what=f"{self.power} options")
        if points < 0:
            raise ValueError(f"{self.power}: a bid must be a positive whole number (or 0 for no bid)")
        if options < 1:
            raise ValueError(f"{self.power}: the number of options must be at least 1")
        if points == 0 and options != 1:
            raise ValueError(f"{self.power}: a power that does not bid cannot bid for {options} options")
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "options", options)

    @property
    def bidder(self) -> bool:
        return self.points > 0

    def to_dict(self) -> dict[str, Any]:
        return {"power": self.power, "points": self.points, "options": self.options}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Bid:
        return cls(power=data["power"], points=data.get("points", 0), options=data.get("options", 1))


@dataclass(frozen=True)
class InitiativeEntry:
    power: str
    points: int
    options: int
    previous_position: int  # 1-based, last turn's track
    modifier: Fraction
    final_bid: Fraction
    bidder: bool
    modified_pe: Fraction | None
    position: int  # 1-based, this turn's track

    def to_dict(self) -> dict[str, Any]:
        return {
            "power": self.power,
            "points": self.points,
            "options": self.options if self.bidder else 0,
            "previous_position": self.previous_position,
            "modifier": to_json_number(self.modifier),
            "final_bid": to_json_number(self.final_bid),
            "bidder": self.bidder,
            "modified_pe": None if self.modified_pe is None else to_json_number(self.modified_pe),
            "position": self.position,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InitiativeEntry:
        pe = data.get("modified_pe")
        return cls(
            power=normalise_power(data["power"]),
            points=int(data["points"]),
            options=max(1, int(data.get("options", 1))),
            previous_position=int(data["previous_position"]),
            modifier=parse_number(data["modifier"]),
            final_bid=parse_number(data["final_bid"]),
            bidder=bool(data["bidder"]),
            modified_pe=None if pe is None else parse_number(pe),
            position=int(data["position"]),
        )


@dataclass(frozen=True)
class MoveDown:
    """A Democrat's move down the track: to just below `below`, or to position `to` (1-based)."""

    power: str
    below: str | None = None
    to: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "power", normalise_power(self.power))
        if (self.below is None) == (self.to is None):
            raise ValueError(f"{self.power}: a move down names either 'below' (a power) or 'to' (a position)")
        if self.below is not None:
            object.__setattr__(self, "below", normalise_power(self.below))
        if self.to is not None:
            object.__setattr__(self, "to", parse_whole(self.to, what=f"{self.power} move-down position"))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"power": self.power}
        if self.below is not None:
            data["below"] = self.below
        else:
            data["to"] = self.to
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MoveDown:
        return cls(power=data["power"], below=data.get("below"), to=data.get("to"))


@dataclass(frozen=True)
class InitiativeResult:
    entries: tuple[InitiativeEntry, ...]  # in this turn's track order
    last_card: int | None  # 1-based position of the last power that bid; None if nobody bid
    move_downs: tuple[MoveDown, ...] = field(default=())
    move_downs_done: bool = False  # the Democrats have had their chance

    @property
    def track(self) -> tuple[str, ...]:
        return tuple(entry.power for entry in self.entries)

    @property
    def bidders(self) -> tuple[str, ...]:
        return tuple(entry.power for entry in self.entries if entry.bidder)

    @property
    def last_card_power(self) -> str | None:
        return None if self.last_card is None else self.entries[self.last_card - 1].power

    def entry(self, power: str) -> InitiativeEntry:
        code = normalise_power(power)
        for entry in self.entries:
            if entry.power == code:
                return entry
        raise KeyError(code)

    def options_by_power(self) -> dict[str, int]:
        return {entry.power: entry.options for entry in self.entries if entry.bidder}

    def to_dict(self) -> dict[str, Any]:
        return {
            "track": list(self.track),
            "last_card": self.last_card,
            "last_card_power": self.last_card_power,
            "entries": [entry.to_dict() for entry in self.entries],
            "move_downs": [move.to_dict() for move in self.move_downs],
            "move_downs_done": self.move_downs_done,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InitiativeResult:
        return cls(
            entries=tuple(InitiativeEntry.from_dict(item) for item in data["entries"]),
            last_card=data.get("last_card"),
            move_downs=tuple(MoveDown.from_dict(item) for item in data.get("move_downs", ())),
            move_downs_done=bool(data.get("move_downs_done", False)),
        )


def bid_modifier(previous_position: int, modifiers: Sequence[NumberInput] = DEFAULT_BID_MODIFIERS) -> Fraction:
    """The bid modifier for a 1-based position on last turn's track."""
    if not 1 <= previous_position <= len(modifiers):
        raise ValueError(f"no bid modifier for position {previous_position}")
    return parse_number(modifiers[previous_position - 1], what="bid modifier")


def final_bid(points: int, options: int, modifier: NumberInput) -> Fraction:
    """(points + modifier) / options, exactly: 9 points for 2 options from 1st is 13/2 = 6.5."""
    if options < 1:
        raise ValueError("options must be at least 1")
    return (Fraction(points) + parse_number(modifier)) / options


def _coerce_bids(bids: Mapping[str, Any] | Iterable[Bid]) -> dict[str, Bid]:
    items: list[Bid] = []
    if isinstance(bids, Mapping):
        for power, value in bids.items():
            if isinstance(value, Bid):
                if value.power != normalise_power(power):
                    raise ValueError(f"the bid listed for {power} is {value.power}'s")
                items.append(value)
            elif isinstance(value, Mapping):
                items.append(Bid(power, value.get("points", value.get("bid", 0)), value.get("options", 1)))
            elif isinstance(value, (tuple, list)):
                items.append(Bid(power, *value))
            elif value is None:
                items.append(Bid(power))
            else:
                items.append(Bid(power, value))
    else:
        items = list(bids)
    result: dict[str, Bid] = {}
    for bid in items:
        if bid.power in result:
            raise ValueError(f"two bids for {bid.power}")
        result[bid.power] = bid
    return result


def compute_initiative(
    previous_track: Sequence[str],
    bids: Mapping[str, Any] | Iterable[Bid],
    modified_pe: Mapping[str, NumberInput] | None = None,
    modifiers: Sequence[NumberInput] = DEFAULT_BID_MODIFIERS,
    pools: Mapping[str, NumberInput] | None = None,
    absent: Iterable[str] = (),
) -> InitiativeResult:
    """Rank the powers on this turn's initiative track (rule 6, before move-downs).

    previous_track: last turn's track, 1st first. bids: per power, a Bid, an
    int (points), a (points, options) pair or {"points", "options"}; missing
    powers did not bid. modified_pe: current modified PE, needed only where it
    breaks a tie. pools: bid points available, checked if given. absent: powers
    on last turn's track that take no place this turn (completely conquered);
    the others keep the modifier of the position they actually held.
    """
    track = normalise_powers(previous_track)
    if len(track) > len(modifiers):
        raise ValueError(f"{len(track)} powers on the track but only {len(modifiers)} bid modifiers")
    bid_map = _coerce_bids(bids)
    gone = set(normalise_powers(absent))
    unknown = set(bid_map) - (set(track) - gone)
    if unknown:
        raise ValueError(f"bid from a power not (or no longer) on the initiative track: {', '.join(sorted(unknown))}")
    pe_map: dict[str, Fraction] = {}
    for power, value in (modified_pe or {}).items():
        pe_map[normalise_power(power)] = parse_number(value, what=f"{power} modified PE")
    if pools is not None:
        for power, value in pools.items():
            code = normalise_power(power)
            pool = parse_number(value, what=f"{code} bid points")
            bid = bid_map.get(code)
            if bid is not None and bid.points > pool:
                held = to_json_number(pool)
                raise ValueError(f"{code} bid {bid.points} but has only {held} bid point{'' if held == 1 else 's'}")

    provisional: list[dict[str, Any]] = []
    for index, power in enumerate(track):
        if power in gone:
            continue
        bid = bid_map.get(power, Bid(power))
        modifier = bid_modifier(index + 1, modifiers)
        provisional.append(
            {
                "power": power,
                "bid": bid,
                "previous_position": index + 1,
                "modifier": modifier,
                "final_bid": final_bid(bid.points, bid.options, modifier),
                "pe": pe_map.get(power),
            }
        )

    def compare(a: dict[str, Any], b: dict[str, Any]) -> int:
        if a["bid"].bidder != b["bid"].bidder:
            return -1 if a["bid"].bidder else 1
        if a["final_bid"] != b["final_bid"]:
            return -1 if a["final_bid"] > b["final_bid"] else 1
        if a["pe"] is None or b["pe"] is None:
            missing = [x["power"] for x in (a, b) if x["pe"] is None]
            raise ValueError(
                f"{a['power']} and {b['power']} are tied on {to_json_number(a['final_bid'])}: "
                f"the tie needs the current modified PE of {', '.join(missing)}"
            )
        if a["pe"] != b["pe"]:
            return -1 if a["pe"] > b["pe"] else 1
        return -1 if a["previous_position"] < b["previous_position"] else 1

    ranked = sorted(provisional, key=cmp_to_key(compare))
    entries = tuple(
        InitiativeEntry(
            power=item["power"],
            points=item["bid"].points,
            options=item["bid"].options,
            previous_position=item["previous_position"],
            modifier=item["modifier"],
            final_bid=item["final_bid"],
            bidder=item["bid"].bidder,
            modified_pe=item["pe"],
            position=position,
        )
        for position, item in enumerate(ranked, start=1)
    )
    bidder_count = sum(1 for entry in entries if entry.bidder)
    return InitiativeResult(entries=entries, last_card=bidder_count or None)


def move_down_order(result: InitiativeResult, democrats: Iterable[str] = IDEOLOGIES[DEMOCRATS]) -> tuple[str, ...]:
    """The Democrats in the order they are offered their move down: reverse initiative order."""
    members = set(normalise_powers(democrats))
    return tuple(power for power in reversed(result.track) if power in members)


def apply_move_downs(
    result: InitiativeResult,
    moves: Iterable[MoveDown] | Mapping[str, Any],
    democrats: Iterable[str] = IDEOLOGIES[DEMOCRATS],
) -> InitiativeResult:
    """Apply the Democrats' move-downs, each offered once in reverse initiative order.

    moves: MoveDown items, or a mapping power -> {"below": power} / {"to": n} /
    a power code (below) / an int (to). A Democrat not listed declines.
    Positions ("to") refer to the track as it stands when that Democrat moves.
    Each Democrat has one chance only: applying move-downs twice is an error.
    """
    if result.move_downs_done:
        raise ValueError("the Democrats have already had their chance to move down this turn")
    if isinstance(moves, Mapping):
        parsed = []
        for power, spec in moves.items():
            if isinstance(spec, MoveDown):
                parsed.append(spec)
            elif isinstance(spec, Mapping):
                parsed.append(MoveDown(power, below=spec.get("below"), to=spec.get("to")))
            elif isinstance(spec, str):
                parsed.append(MoveDown(power, below=spec))
            else:
                parsed.append(MoveDown(power, to=spec))
        move_list = parsed
    else:
        move_list = list(moves)
    by_power: dict[str, MoveDown] = {}
    for move in move_list:
        if move.power in by_power:
            raise ValueError(f"{move.power} may move down only once")
        by_power[move.power] = move
    order = move_down_order(result, democrats)
    strangers = set(by_power) - set(order)
    if strangers:
        raise ValueError(f"only Democrats may move down the track, not {', '.join(sorted(strangers))}")

    entries = list(result.entries)
    bidder_count = sum(1 for entry in entries if entry.bidder)
    applied: list[MoveDown] = []
    for power in order:
        found = by_power.get(power)
        if found is None:
            continue
        move = found
        current = next(i for i, entry in enumerate(entries) if entry.power == power)
        if move.below is not None:
            if move.below == power:
                raise ValueError(f"{power} cannot move below itself")
            anchor = next((i for i, entry in enumerate(entries) if entry.power == move.below), None)
            if anchor is None:
                raise ValueError(f"{move.below} is not on the initiative track")
            if anchor < current:
                raise ValueError(f"{power} can only move down: {move.below} is above it")
            target = anchor  # index after removing the mover
        elif move.to is None:
            raise ValueError(f"{power}: say below which power, or to which position, it moves")
        else:
            target = move.to - 1
            if target <= current:
                raise ValueError(f"{power} is {current + 1}th and can only move down, not to {move.to}")
            if target >= len(entries):
                raise ValueError(f"there is no position {move.to} on the track")
        if entries[current].bidder and target >= bidder_count:
            raise ValueError(f"{power} made a bid and must stay above every power that did not bid")
        mover = entries.pop(current)
        entries.insert(target, mover)
        applied.append(move)
    renumbered = tuple(replace(entry, position=index) for index, entry in enumerate(entries, start=1))
    return InitiativeResult(
        entries=renumbered,
        last_card=result.last_card,
        move_downs=result.move_downs + tuple(applied),
        move_downs_done=True,
    )
