"""The command finder and registry: one tiny handler class per mail command (Mailman style).

The finder reads the text of a mail line by line.  A line that names a command runs its
handler; any other line, once signed on as a power, is orders.  ``SIGNOFF`` (or a ``-- ``
signature line) ends the mail.  Handlers parse their arguments, call a use case of
``app.services`` with ``ctx.actor()`` and render its value into the reply through the
mail session (``app.mail.session.MailSession``).  A use case's ``DomainError`` and the
door's own ``CommandError`` both become an ``Error: ...`` reply line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from app.mail.errors import CommandError
from app.mail.session import MailSession
from app.services.errors import DomainError

__all__ = ["REGISTRY", "Command", "CommandError", "register", "run_commands", "split_lines"]

MAX_LINES = 2000
MAX_ERRORS_BEFORE_SIGNON = 10
END_PRESS = {"ENDPRESS", "END PRESS", "ENDBROADCAST", "END BROADCAST", "SIGNOFF", "SIGN OFF"}


class Command:
    """One mail command.  ``names`` are the words (one or two) that start its line."""

    names: ClassVar[tuple[str, ...]] = ()
    help: ClassVar[str] = ""
    role: ClassVar[str] = "anyone"  # anyone | player | master
    secret_args: ClassVar[bool] = False  # mask the password when echoing

    def process(self, ctx: MailSession, args: str) -> None:
        raise NotImplementedError


REGISTRY: dict[str, Command] = {}


def register(cls: type[Command]) -> type[Command]:
    instance = cls()
    for name in cls.names:
        REGISTRY[name] = instance
    return cls


@dataclass
class Found:
    command: Command
    name: str
    args: str


def find(line: str) -> Found | None:
    """The longest registered command name that starts the line (``SET WAIT`` before ``SET``)."""
    words = line.split()
    if not words:
        return None
    for size in (3, 2, 1):
        if len(words) < size:
            continue
        key = " ".join(w.upper() for w in words[:size])
        command = REGISTRY.get(key)
        if command is not None:
            rest = line.strip()
            for _ in range(size):
                rest = rest.split(None, 1)[1] if len(rest.split(None, 1)) > 1 else ""
            return Found(command, key, rest.strip())
    return None


def split_lines(text: str) -> list[str]:
    """Body lines without quoted reply text (``>``) and without DPjudge ``//`` comments."""
    lines: list[str] = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.rstrip()
        if line.endswith("<br>"):
            line = line[:-4].rstrip()
        if line.lstrip().startswith(">") or line.lstrip().startswith("//"):
            continue
        lines.append(line)
    return lines


def _masked(found: Found, line: str) -> str:
    if not found.command.secret_args:
        return line.strip()
    words = line.split()
    if len(words) >= 3 and found.name.count(" ") == 0:
        words = words[:2] + ["****"] + words[3:4]
    elif len(words) >= 2:
        words = words[: found.name.count(" ") + 1] + ["****"]
    return " ".join(words)


def run_commands(ctx: MailSession, lines: Iterable[str]) -> None:
    """Run every command of a mail against the session ``ctx``."""
    errors_before_signon = 0
    all_lines = list(lines)
    for number, line in enumerate(all_lines):
        if number >= MAX_LINES:
            ctx.note_unprocessed(all_lines[number : number + 20])
            ctx.echo("(message too long: the rest was ignored)", [])
            break
        if ctx.collector is not None:
            if line.strip().upper() in END_PRESS or line.rstrip() == "--":
                ctx.finish_collector()
                if line.strip().upper() in ("SIGNOFF", "SIGN OFF"):
                    break
                continue
            ctx.collector.append(line)
            continue
        stripped = line.strip()
        if not stripped:
            continue
        if line.rstrip() == "--" or line == "-- ":
            break  # signature
        found = find(stripped)
        if found is not None and found.name in ("SIGNOFF", "SIGN OFF"):
            ctx.echo(stripped, [])
            break
        if found is None:
            if ctx.can_order():
                ctx.order_line(stripped)
                continue
            errors_before_signon += 1
            ctx.echo(stripped, [ctx.not_a_command_reason()])
            if errors_before_signon >= MAX_ERRORS_BEFORE_SIGNON:
                ctx.note_unprocessed(all_lines[number + 1 : number + 21])
                break
            continue
        ctx.echo(_masked(found, stripped), [])
        ctx.flush_orders()
        try:
            ctx.require(found.command.role)
            found.command.process(ctx, found.args)
        except (CommandError, DomainError) as error:
            ctx.add_note(f"Error: {error}")
            if ctx.stop_on_error:
                ctx.note_unprocessed(all_lines[number + 1 : number + 21])
                break
    if ctx.collector is not None:
        ctx.finish_collector()
    ctx.flush_orders()
