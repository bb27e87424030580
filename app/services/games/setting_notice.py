"""A GM's change of a game's settings, told to the players (issue 28.1) and written in the audit
with the value before and after (issue 28.2).

Each writer of a setting (``gm.set_option``, ``gm.set_timing``, ``gm.set_rule``) records a
``SettingChanged`` event with the setting's name and its value before and after, as words.  At
the commit of the unit of work every change of one game becomes ONE notice (one save of the
dashboard's settings, one mail of ``SET`` commands), mailed to every player and observer in the
game's layout (``templates/mail/<layout>/settings_changed.txt.j2``), and one GM note printed with
the next results.  A game that has not started (forming: its players see its settings when it
starts) or is over is told nothing.  Njudge mails every player when the master changes a flag.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.db.models import Game
from app.db.statuses import RUNNING
from app.services.kernel.context import Judge
from app.services.kernel.uow import DomainEvent, UnitOfWork
from app.services.mailout.notify import mail_game
from app.services.ruleset.options import GameOptions, options_of
from app.services.seats.votes import draw_expiry_words

__all__ = ["OPTION_LABELS", "SettingChanged", "option_shown", "record_change", "tell_setting_changes",
           "timing_label", "timing_shown"]

OPTION_LABELS = {"press": "press", "nmr": "NMR policy", "layout": "layout", "orders": "orders",
                 "timezone": "time zone", "reminder_hours": "reminder", "takeover": "takeover",
                 "early_minutes": "early processing", "draw_expires": "draw votes"}
_TIMING_WORDS = {"next_hours": "hours to the deadline", "grace_hours": "grace", "at": "deadlines at",
                 "days": "deadline days"}


@dataclass(frozen=True)
class SettingChanged(DomainEvent):
    """Setting ``what`` of a game went from ``old`` to ``new`` (both as the players read them)."""

    game_id: int
    what: str
    old: str
    new: str


def _hours(value: float) -> str:
    return f"{value:g} h"


def option_shown(options: GameOptions, press: str, key: str) -> str:
    """An option of ``set_option`` as the notice and the audit show it (``press``: the game's rule)."""
    if key == "press":
        rule = "postal" if options.postal_press else press
        return rule + (" (observers may send press)" if options.observer_press else "")
    if key == "early_minutes":
        return f"after {options.early_minutes:g} minutes of quiet" if options.early else "off"
    if key == "draw_expires":
        return draw_expiry_words(options.draw_expires)
    if key == "reminder_hours":
        return _hours(options.reminder_hours) + " before the deadline" if options.reminder_hours > 0 else "none"
    return str(getattr(options, key))


def timing_label(kind: str, key: str) -> str:
    return f"{kind} {_TIMING_WORDS.get(key, key)}"


def timing_shown(key: str, value: Any) -> str:
    if key in ("next_hours", "grace_hours"):
        return _hours(float(value)) if isinstance(value, int | float) else str(value)
    if key == "at":
        return str(value) if value else "any time"
    return str(value) if value else "every day"


def record_change(uow: UnitOfWork, game: Game, what: str, old: str, new: str) -> None:
    """Note a change for the notice at the commit (nothing when the value did not change)."""
    if old != new:
        uow.record(SettingChanged(game.id, what, old, new))


def _merged(changes: Iterable[SettingChanged]) -> list[tuple[str, str, str]]:
    """One line a setting: its first value before and its last after (a value set back: no line)."""
    found: dict[str, list[str]] = {}
    for change in changes:
        if change.what in found:
            found[change.what][1] = change.new
        else:
            found[change.what] = [change.old, change.new]
    return [(what, old, new) for what, (old, new) in found.items() if old != new]


def tell_setting_changes(judge: Judge, unit: UnitOfWork, event: SettingChanged) -> None:
    """The handler of ``SettingChanged``: this game's changes of the unit, told once."""
    same = [e for e in unit.events if isinstance(e, SettingChanged) and e.game_id == event.game_id]
    for other in same:
        unit.events.remove(other)
    game = unit.session.get(Game, event.game_id)
    if game is None or game.status not in RUNNING:
        return
    lines = _merged([event, *same])
    if lines:
        _tell(judge, unit, game, lines)


def _tell(judge: Judge, uow: UnitOfWork, game: Game, lines: Sequence[tuple[str, str, str]]) -> None:
    layout = options_of(game).layout
    text = judge.templates.render(f"mail/{layout}/settings_changed.txt.j2", game=game.name, phase=game.phase,
                                  changes=lines)
    mail_game(uow, judge, game, f"Diplomacy settings changed {game.name}", text, kind="notice", master=False)
    note = "The master changed the settings: " + "; ".join(f"{what} {old} -> {new}" for what, old, new in lines) + "."
    game.settings = {**game.settings, "notes": [*game.settings.get("notes", []), note]}
