"""HELP in the reader's order: the commands of the sender's role first, then the others; the
Days of Decision III commands only where they apply (``Ruleset.help_topics``)."""

from __future__ import annotations

from collections.abc import Iterable

from app.mail.commands.registry import Command, CommandRole

__all__ = ["help_text", "topic_of"]

_MASTER, _PLAYER, _ANYONE = CommandRole.MASTER, CommandRole.PLAYER, CommandRole.ANYONE
ROLE_TITLES = {_MASTER: "Commands for the game master", _PLAYER: "Commands for players",
               _ANYONE: "Commands for everyone"}
ROLE_ORDER = {_MASTER: (_MASTER, _PLAYER, _ANYONE), _PLAYER: (_PLAYER, _ANYONE, _MASTER),
              _ANYONE: (_ANYONE, _PLAYER, _MASTER)}


def topic_of(command: Command) -> str:
    """``dod3`` for the Days of Decision III commands, ``general`` for the rest."""
    first = command.names[0] if command.names else ""
    return "dod3" if first.startswith("DOD3 ") or "(DoD III" in command.help else "general"


def _shown(command: Command, topics: tuple[str, ...] | None) -> bool:
    if topic_of(command) != "dod3":
        return True
    if topics is None:  # not in a game: only the way into one (DOD3 CREATE)
        return command.role == CommandRole.ANYONE
    return "dod3" in topics


def help_text(commands: Iterable[Command], role: CommandRole, topics: tuple[str, ...] | None) -> str:
    """The HELP section for a sender of ``role`` (master, player, anyone) signed on to a game whose
    ruleset has ``topics`` (``None``: not signed on to a game)."""
    groups: dict[CommandRole, list[str]] = {key: [] for key in ROLE_TITLES}
    seen: set[str] = set()
    ordered = sorted(commands, key=lambda c: topic_of(c) != "dod3") if topics and "dod3" in topics else commands
    for command in ordered:
        if not command.help or command.help in seen or not _shown(command, topics):
            continue
        seen.add(command.help)
        groups.get(command.role, groups[CommandRole.ANYONE]).append(command.help)
    parts = ["Commands of this judge (see docs/commands.md for examples):"]
    for key in ROLE_ORDER.get(role, ROLE_ORDER[CommandRole.ANYONE]):
        if groups[key]:
            parts.append(f"\n{ROLE_TITLES[key]}:\n" + "\n".join(f"  {line}" for line in groups[key]))
    return "\n".join(parts)
