"""Reply text for the lobby's values: the games, a game's status, results, summary, joining, the start."""

from __future__ import annotations

from app.mail.replies.status import seat_status
from app.services.games.lobby import GameStarted, Joined
from app.services.kernel.render import format_deadline
from app.services.readmodels.listing import GameInfo, GameRow, History, Summary

__all__ = ["render_game_info", "render_games", "render_history", "render_joined", "render_started",
           "render_summary"]


def _width(texts: list[str], least: int) -> int:
    """A column as wide as its longest entry (a long power or variant name keeps its columns)."""
    return max([least, *(len(text) for text in texts)])


def render_games(rows: tuple[GameRow, ...]) -> str:
    name_w, variant_w = _width([g.name for g in rows], 16), _width([g.variant for g in rows], 10)
    lines = [f"  {g.name:<{name_w}} {g.variant:<{variant_w}} {g.status:<8} {g.phase or ''}".rstrip() for g in rows]
    return "Games on this judge:\n" + ("\n".join(lines) if lines else "  (none)")


def render_game_info(info: GameInfo) -> str:
    lines = [f"Game '{info.name}': {info.variant}, {info.status}, press {info.press}.",
             f"Phase {info.phase or '-'}, deadline {format_deadline(info.deadline, info.timezone)}."]
    if info.grace_until is not None:  # the deadline passed (issue 28.14)
        lines[-1] = lines[-1][:-1] + " (passed);"
        lines.append(f"the grace period ends {format_deadline(info.grace_until, info.timezone)}.")
    powers = [seat for seat in info.seats if not seat.observer]
    width = _width([seat.label for seat in powers], 10)
    lines.extend(f"  {seat.label:<{width}} {seat_status(seat.status)}" for seat in powers)
    observers = len(info.seats) - len(powers)
    if observers:  # observers are no power: counted under the powers (issue 28.21)
        lines.append(f"Observers: {observers}.")
    return "\n".join(lines)


def render_history(history: History) -> str:
    return "\n\n".join(history.results) if history.results else f"Game '{history.game_name}' has no results yet."


def render_summary(summary: Summary) -> str:
    lines = [f"Summary of game '{summary.game_name}' ({summary.variant}, {summary.status}).", ""]
    if summary.powers:  # a map game's centres (Days of Decision III has none)
        lines.extend(["History of Supply Center Counts:",
                      "  " + "Phase".ljust(8) + "".join(f"{p[:3]:>5}" for p in summary.powers)])
        lines.extend("  " + phase.ljust(8) + "".join(f"{n:>5}" for n in counts) for phase, counts in summary.centres)
        lines.append("")
    lines.append("Players:")
    width = _width([seat.label for seat in summary.players], 10)
    lines.extend(f"  {seat.label:<{width}} {seat.email} ({seat_status(seat.status)})" for seat in summary.players)
    if summary.ending:
        lines.extend(["", summary.ending.rstrip("\n")])
    return "\n".join(lines)


def render_started(started: GameStarted) -> str:
    return (f"Game '{started.name}' has started: {started.phase}, "
            f"deadline {format_deadline(started.deadline, started.timezone)}.")


def render_joined(joined: Joined) -> list[str]:
    """The notes of a JOIN (or OBSERVE): ignored preferences, the count, and the start it caused."""
    if joined.observer:
        return [f"You are observing game '{joined.game_name}'."]
    notes = []
    if joined.ignored:
        notes.append(f"Ignored unknown powers in the preferences: {', '.join(joined.ignored)}.")
    notes.append(f"Joined game '{joined.game_name}' ({joined.players} of {joined.seats} players).")
    if joined.started is not None:
        notes.append(render_started(joined.started))
    return notes
