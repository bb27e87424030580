"""A plain-text turn report, in the manner of a PBEM zine page (pure: the caller
supplies the rolls, the revealed seed and the next deadline as text)."""

from __future__ import annotations

from collections.abc import Iterable

from .dice import Roll
from .exact import format_number
from .powers import POWER_NAMES
from .state import GameState
from .turns import PHASE_TITLES, Phase

__all__ = ["turn_report"]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def turn_report(
    state: GameState,
    rolls: Iterable[Roll] = (),
    *,
    commitment: str | None = None,
    seed: str | None = None,
    next_deadline: str | None = None,
    gm: bool = False,
) -> str:
    """The turn so far as text. Unless gm=True, a power whose PE is face down (rule 3.2,
    the USA and USSR at the start) shows '?' for its PE, bid points and bonus."""
    lines: list[str] = []
    title = f"Days of Decision III - {state.setup.game_id} - {state.turn_label}"
    lines += [title, "=" * len(title), ""]

    if state.initiative is not None:
        lines.append("INITIATIVE")
        for entry in state.initiative.entries:
            if entry.bidder:
                bid = f"bid {entry.points}" + (f" for {entry.options} options" if entry.options > 1 else "")
                sign = "+" if entry.modifier >= 0 else ""
                bid += f", {sign}{format_number(entry.modifier)} -> {format_number(entry.final_bid)}"
            else:
                bid = f"no bid ({format_number(entry.final_bid)})"
            marker = "  <- last card" if state.initiative.last_card == entry.position else ""
            lines.append(f"  {_ordinal(entry.position):>4} {POWER_NAMES[entry.power]:<42} {bid}{marker}")
        for move in state.initiative.move_downs:
            where = f"below {move.below}" if move.below else f"to {_ordinal(move.to or 0)}"
            lines.append(f"  {move.power} moves down {where}")
        lines.append("")

    if state.weather is not None:
        lines += [f"WEATHER: {state.weather}", ""]

    if state.political is not None:
        lines.append("POLITICAL AFFAIRS")
        plays = list(state.political.plays)
        slots: list[tuple[object, object]] = []
        for end_roll in state.political.rolls:
            if end_roll.passed:
                slots.append((None, end_roll))
            elif plays:
                slots.append((plays.pop(0), end_roll))
        slots.extend((play, None) for play in plays)  # an option awaiting its roll
        for play, end_roll in slots:
            if play is None:
                lines.append(f"  {end_roll.passed} passes")
                continue
            text = f"  {play.power} plays {play.option}, cost {format_number(play.cost)}"
            if play.paid_by_others:
                text += f" ({format_number(play.paid_by_others)} paid by others)"
            if play.target:
                text += f", target {play.target}"
            if play.minor_activated:
                text += f"; activates {play.minor_activated}"
            if play.effects:
                text += f". {play.effects}"
            if play.status != "succeeded":
                text += f" [{play.status}]"
            lines.append(text)
            if end_roll is not None:
                if end_roll.automatic:
                    lines.append("    last card: political affairs end")
                elif end_roll.die is not None:
                    bonus = end_roll.at_war_bonus + end_roll.all_at_war_bonus
                    lines.append(
                        f"    end roll {end_roll.die} - {end_roll.subtracted} + {bonus} = {end_roll.modified}: "
                        + ("political affairs end" if end_roll.ends else "continue")
                    )
        lines.append("")

    hidden = set() if gm else {power.power for power in state.powers if power.pe_hidden}
    if state.bonus:
        lines.append("BONUS BID POINTS")
        for change in state.bonus:
            if change.power in hidden:
                lines.append(f"  {change.power}: ? (PE face down)")
            elif change.money_lost:
                lines.append(f"  {change.power}: loses {change.money_lost} money")
            else:
                lines.append(f"  {change.power}: +{change.bid_points_gained} bid points")
        lines.append("")

    lines.append(f"  {'POWER':<18} {'PE':>4} {'mod PE':>7} {'money':>6} {'credit':>7} {'bid pts':>8} {'US entry':>9}")
    for power in state.powers:
        status = " (conquered)" if power.conquered else ""
        secret = power.power in hidden
        pe = "?" if secret else format_number(power.pe)
        modified = "?" if secret else format_number(power.modified_pe)
        bid_points = "?" if secret else format_number(power.bid_points)
        lines.append(
            f"  {power.power:<4}{status:<14} {pe:>4} {modified:>7}"
            f" {format_number(power.money):>6} {format_number(power.credit_limit):>7}"
            f" {bid_points:>8} {format_number(power.us_entry):>9}"
        )
    lines.append("")

    roll_list = list(rolls)
    if roll_list or commitment:
        lines.append("DICE")
        if commitment:
            lines.append(f"  commitment SHA256(seed) = {commitment}")
        for roll in roll_list:
            lines.append(f"  #{roll.counter} {roll.purpose}: d{roll.sides} = {roll.result}")
        if seed:
            lines.append(f"  seed (revealed) = {seed}")
        lines.append("")

    notes = [entry for entry in state.log if entry.turn == state.turn and (gm or not entry.secret)]
    if notes:
        lines.append("RECORD")
        for entry in notes:
            lines.append(f"  [{entry.phase} {PHASE_TITLES.get(_phase(entry.phase), '')}] {entry.text}")
        lines.append("")

    if state.ended:
        lines += ["THE GAME HAS ENDED: " + "; ".join(state.ended), ""]
    elif next_deadline:
        lines += [f"Next deadline: {next_deadline}", ""]
    return "\n".join(lines).rstrip() + "\n"


def _phase(value: str) -> Phase | None:
    try:
        return Phase(value)
    except ValueError:
        return None
