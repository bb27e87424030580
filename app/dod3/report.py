"""The turn report of a DoD III game, as plain data (pure: the caller supplies the dice, the
opened step and who reads it). The mail templates ``templates/mail/dod3/report.*.j2`` lay it
out; this is the one place that decides what a report says.

Secrecy (rule 3.2): a power whose PE marker is face down shows "?" for its PE, modified PE,
bid points and bonus, except to its own player (``reveal``) and to the GM (``gm=True``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .dice import Roll
from .exact import format_number, parse_number, round_rule
from .political import EndRoll, OptionPlay, PlayStatus
from .powers import IDEOLOGY_OF
from .state import GameState
from .turns import PHASE_TITLES, turn_label
from .variant import SHORT_NAMES

__all__ = [
    "PowerRow",
    "RollRow",
    "TurnReport",
    "initiative_lines",
    "bonus_lines",
    "name",
    "play_line",
    "political_lines",
    "roll_lines",
    "tally_lines",
    "winner_line",
    "turn_report_view",
]


def name(power: str) -> str:
    return SHORT_NAMES.get(power, power)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


@dataclass(frozen=True)
class PowerRow:
    power: str
    name: str  # marked "*" when conquered (see TurnReport.conquered)
    pe: str
    mod_pe: str
    money: str
    credit: str
    bid_points: str
    us_entry: str
    ideology: str
    at_war_with: tuple[str, ...]


@dataclass(frozen=True)
class RollRow:
    counter: int
    purpose: str
    result: int
    message: str


@dataclass(frozen=True)
class TurnReport:
    game: str
    title: str
    first_turn: bool  # Jan/Feb 1936: no bids, the initial track
    initiative: tuple[str, ...]
    weather: str | None
    political: tuple[str, ...]
    bonus: tuple[str, ...]
    powers: tuple[PowerRow, ...]
    conquered: tuple[str, ...]
    us_entry: tuple[str, ...]
    wars: tuple[str, ...]
    record: tuple[str, ...]
    events: tuple[str, ...]
    tally: tuple[str, ...] | None
    commitment: str | None
    seed: str | None
    rolls: tuple[RollRow, ...]
    ended: tuple[str, ...]
    winner: str | None
    next: str
    next_commitment: str | None
    steps: Mapping[str, str]


def initiative_lines(state: GameState) -> list[str]:
    """The bids revealed and the track; in Jan/Feb 1936 (no bidding) the initial track."""
    result = state.initiative
    if result is None:
        if state.first_turn:
            return ["  No bidding in Jan/Feb 1936: the initial track is "
                    + ", ".join(name(p) for p in state.setup.initial_track) + "."]
        return []
    lines = []
    for entry in result.entries:
        sign = "+" if entry.modifier >= 0 else ""
        if not entry.bidder:
            how = f"no bid ({format_number(entry.final_bid)})"
        elif entry.options > 1:
            how = (f"bid {entry.points} for {entry.options} options: ({entry.points}{sign}"
                   f"{format_number(entry.modifier)})/{entry.options} = {format_number(entry.final_bid)}")
        else:
            how = f"bid {entry.points} {sign}{format_number(entry.modifier)} = {format_number(entry.final_bid)}"
        lines.append(f"{_ordinal(entry.position):>4} {name(entry.power):<17} {how}")
        if result.last_card == entry.position:
            lines.append("     ---------------- last card ----------------")
    for move in result.move_downs:
        lines.append(f"     {name(move.power)} moved down below {name(move.below or '?')}")
    if result.last_card is None:
        lines.append("     Nobody bid: there are no options this turn.")
    return lines


def play_line(play: OptionPlay) -> str:
    text = f"{name(play.power)} plays {play.option} (cost {format_number(play.cost)})"
    if play.minor_activated:
        text += f", activating {play.minor_activated}"
    if play.status == PlayStatus.PENDING:
        text += ", pending (rule 8.4)"
    elif play.status == PlayStatus.FAILED:
        text += ", which failed (nothing paid)"
    return text + "."


def roll_lines(roll: EndRoll, counter: int | None = None) -> list[str]:
    if roll.passed:
        return []
    if roll.automatic:
        return ["The last bidder's last option: political affairs end (no roll)."]
    parts = f"d10 {roll.die} - {roll.subtracted}"
    if roll.at_war_bonus:
        parts += f" + {roll.at_war_bonus}"
    if roll.all_at_war_bonus:
        parts += f" + {roll.all_at_war_bonus}"
    return [f"End roll{f' #{counter}' if counter is not None else ''}: {parts} = {roll.modified}: "
            + ("political affairs end." if roll.ends else "they continue.")]


def political_lines(state: GameState) -> list[str]:
    political = state.political
    if political is None:
        return []
    lines: list[str] = []
    plays = list(political.plays)
    for roll in political.rolls:
        if roll.passed:
            lines.append(f"{name(roll.passed)} passes.")
            continue
        play = plays.pop(0)
        lines.append(play_line(play))
        if play.effects:
            lines.append(f"  Effects: {play.effects}")
        detail = []
        if roll.previous_options:
            detail.append(f"{_plural(roll.previous_options, 'option')} before")
        if roll.at_war_bonus:
            detail.append(f"{roll.powers_at_war} powers at war")
        if roll.all_at_war_bonus:
            detail.append("every power at war")
        lines += ["  " + line for line in roll_lines(roll)]
        if detail and not roll.automatic:
            lines.append("    (" + "; ".join(detail) + ")")
    for play in plays:
        lines.append(play_line(play) + " [awaiting its end roll]")
    if not lines:
        lines.append("No option was played.")
    return lines


def _num(value: Any) -> str:
    return format_number(parse_number(value))


def tally_lines(view: Mapping[str, Any], *, final: bool = True) -> list[str]:
    """Rule 4's victory tally (``VictoryResult.to_dict()``, or ``{"error": ...}``). ``final``:
    the game is over and the tally names the winners; during play (issue 22.17) it names who
    leads and who would win if the game ended now, never a "winning player"."""
    heading = "VICTORY TALLY" if final else "VICTORY TALLY (as it stands: the game goes on)"
    if "error" in view:
        return [heading, f"  not possible: {view['error']}"]
    mark = "  WINS" if final else "  LEADS"
    lines = [heading]
    for credited, shares in (view.get("neutral_credits") or {}).items():
        lines.append(f"  {credited}: " + ", ".join(f"{p} {_num(v)}" for p, v in shares.items()))
    for ideology, row in view["ideologies"].items():
        lines.append(f"  {ideology:<11} holds {_num(row['objectives']):>5}, needs {_num(row['needed']):>3}: "
                     f"net {_num(row['net'])}" + (mark if row["winner"] else ""))
    for row in view["players"]:
        lines.append(f"  {row['player']:<20} {_num(row['objectives'])} ({row['objectives_rounded']}) of "
                     f"{_num(row['needed'])}: net {_num(row['net'])}" + (mark if row["winner"] else ""))
    winners = " and ".join(view["winning_players"]) or "none"
    ideologies = " and ".join(view["winning_ideologies"])
    if final:
        lines.append(f"  Winning ideology: {ideologies}; winning player: {winners}")
    else:
        lines.append(f"  Leading ideology: {ideologies or 'none'}; would win if the game ended now: {winners}")
    return lines


def winner_line(view: Mapping[str, Any] | None) -> str | None:
    """The end of the game in one sentence: who won (rule 4)."""
    if not view or "error" in view:
        return None
    ideologies = " and ".join(view["winning_ideologies"])
    players = list(view["winning_players"])
    if len(players) == 1:
        who = f"the winning player is {players[0]}"
    elif players:
        who = f"the winning players are {' and '.join(players)}"
    else:
        who = "no player wins"
    return f"{ideologies or 'No ideology'} {'win' if ideologies else 'wins'}; {who}."


def _power_rows(state: GameState, shown: Collection[str]) -> tuple[PowerRow, ...]:
    rows = []
    for p in state.powers:
        secret = p.pe_hidden and p.power not in shown
        rows.append(PowerRow(
            power=p.power, name=name(p.power) + ("*" if p.conquered else ""),
            pe="?" if secret else format_number(p.pe),
            mod_pe="?" if secret else format_number(p.modified_pe),
            money=format_number(p.money), credit=format_number(p.credit_limit),
            bid_points="?" if secret else format_number(p.bid_points),
            us_entry=format_number(p.us_entry), ideology=IDEOLOGY_OF[p.power], at_war_with=tuple(p.at_war_with),
        ))
    return tuple(rows)


def bonus_lines(state: GameState, shown: Collection[str]) -> list[str]:
    hidden = {p.power for p in state.powers if p.pe_hidden and p.power not in shown}
    lines = []
    for change in state.bonus:
        if change.power in hidden:
            lines.append(f"{name(change.power)}: ? (PE face down)")
        elif change.money_lost:
            lines.append(f"{name(change.power)}: loses {change.money_lost} money")
        else:
            lines.append(f"{name(change.power)}: +{_plural(change.bid_points_gained, 'bid point')}")
    return lines


def turn_report_view(
    game: str,
    state: GameState,
    rolls: Sequence[Roll] = (),
    *,
    commitment: str | None = None,
    seed: str | None = None,
    tally: Mapping[str, Any] | None = None,
    next_text: str = "",
    next_commitment: str | None = None,
    events: Sequence[str] = (),
    reveal: Collection[str] = (),
    gm: bool = False,
) -> TurnReport:
    """What the report of ``state``'s turn shows to one reader: the public view, plus the
    hidden numbers of the ``reveal`` powers (the reader's own), or everything for the GM."""
    shown = {p.power for p in state.powers} if gm else set(reveal)
    us_entry = tuple(f"{name(p.power)}: {format_number(p.us_entry)}"
                     + (f" (rounds to {round_rule(p.us_entry)})" if p.us_entry.denominator != 1 else "")
                     for p in state.powers if p.us_entry)
    wars = tuple(f"{name(p.power)}: " + ", ".join(name(e) for e in p.at_war_with)
                 for p in state.powers if p.at_war_with)
    record = tuple(entry.text[4:] for entry in state.log
                   if entry.turn == state.turn and entry.text.startswith("GM: ")
                   and (not entry.secret or gm or any(f"GM: {name(p)}" in entry.text or f"GM: {p} " in entry.text
                                                      for p in shown)))
    return TurnReport(
        game=game, title=turn_label(state.turn), first_turn=state.first_turn,
        initiative=tuple(initiative_lines(state)), weather=state.weather,
        political=tuple(political_lines(state)), bonus=tuple(bonus_lines(state, shown)),
        powers=_power_rows(state, shown),
        conquered=tuple(name(p.power) for p in state.powers if p.conquered),
        us_entry=us_entry, wars=wars, record=record, events=tuple(events),
        tally=None if tally is None else tuple(tally_lines(tally, final=bool(state.ended))),
        commitment=commitment or state.dice_commitment,
        seed=None if gm else seed,
        rolls=tuple(RollRow(r.counter, r.purpose, r.result, f"{r.game}/{r.turn}/{r.purpose}/{r.counter}")
                    for r in rolls),
        ended=tuple(state.ended), winner=winner_line(tally) if state.ended else None,
        next=next_text, next_commitment=next_commitment,
        steps={step.value: title for step, title in PHASE_TITLES.items()},
    )
