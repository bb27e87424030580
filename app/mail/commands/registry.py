"""The command finder and registry: one tiny handler class per mail command (Mailman style).

The finder reads the text of a mail line by line.  A line that names a command runs its
handler; any other line, once signed on as a power, is orders.  ``SIGNOFF`` (or a ``-- ``
signature line) ends the mail.  Handlers parse their arguments, call a use case of
``app.services`` with ``ctx.actor()`` and render its value into the reply through the
mail session (``app.mail.commands.session.MailSession``).  A use case's ``DomainError`` and the
door's own ``CommandError`` both become an ``Error: ...`` reply line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from app.mail.commands.errors import CommandError, NeedsConfirmation
from app.mail.commands.refusals import refusal_text
from app.mail.commands.session import CommandRole, MailSession
from app.services.errors import DomainError
from app.services.kernel.text_clean import strip_invisible
from app.services.mailout.redact import mask_passwords

__all__ = ["REGISTRY", "Command", "CommandError", "CommandRole", "masked_line", "register", "run_commands", "split_lines"]

MAX_LINES = 2000
MAX_ERRORS_BEFORE_SIGNON = 10
END_PRESS = {"ENDPRESS", "END PRESS", "ENDBROADCAST", "END BROADCAST", "ENDSTATEMENT", "END STATEMENT", "SIGNOFF",
             "SIGN OFF"}


class Command:
    """One mail command.  ``names`` are the words (one or two) that start its line."""

    names: ClassVar[tuple[str, ...]] = ()
    help: ClassVar[str] = ""
    role: ClassVar[CommandRole] = CommandRole.ANYONE
    secret_args: ClassVar[bool] = False  # mask the password when echoing
    secret_from: ClassVar[int] = 1  # with ``secret_args``: the argument words from this one on are masked
    secret_words: ClassVar[int | None] = None  # with ``secret_args``: only this many are (None: all the rest)

    def process(self, ctx: MailSession, args: str) -> None:
        raise NotImplementedError

    def refused(self, ctx: MailSession, error: Exception) -> None:
        """Called when the command was refused (a PRESS swallows its text up to ENDPRESS)."""


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


_LIST_MARK = re.compile(r"^(?:[-\u2013\u2014*\u2022\u00b7]|\d{1,2}[.)])\s+")
"""A list's marker before an order: a bulleted (``- A Ber-Pru``, an HTML ``<li>``) or numbered
(``1. A Ber-Pru``) list written by the player's client; no order begins with one."""


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
    """Body lines without quoted reply text (``>``) and without DPjudge ``//`` comments; characters
    that show nothing (a byte-order mark, zero-width spaces, bidi controls) are dropped first."""
    lines: list[str] = []
    for raw in strip_invisible(text).replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.rstrip()
        if line.endswith("<br>"):
            line = line[:-4].rstrip()
        if line.lstrip().startswith(">") or line.lstrip().startswith("//"):
            continue
        lines.append(line)
    return lines


def _masked(found: Found, line: str) -> str:
    """The line as echoed: every argument word from the command's first secret one on is ``****``,
    however the arguments parse (a password is never echoed); then every other password position
    (``mask_passwords``)."""
    if not found.command.secret_args:
        return mask_passwords(line.strip())
    words = line.split()
    keep = found.name.count(" ") + 1 + found.command.secret_from
    if len(words) <= keep:
        return mask_passwords(" ".join(words))
    count = found.command.secret_words
    shown = words[keep + count:] if count is not None else []
    return mask_passwords(" ".join(words[:keep] + ["****"] + shown))


def masked_line(line: str) -> str:
    """``line`` with its passwords masked: a command that carries one, or any password position."""
    found = find(line.strip())
    return _masked(found, line) if found is not None else mask_passwords(line.strip())


def _skip_rest(ctx: MailSession, lines: list[str], first: int, why: str) -> None:
    """Stop reading at line ``first`` (0-based) and say so: the reply lists the first lines not read."""
    rest = [masked_line(line) for line in lines[first:] if line.strip()]
    if not rest:
        return
    ctx.note_unprocessed(rest[:20])
    more = f" (the first {min(20, len(rest))} are listed below)" if rest else ""
    ctx.echo(f"({why}: the {len(rest)} non-blank line{'s' if len(rest) != 1 else ''} from line {first + 1} on "
             f"were not read{more})", [])


def run_commands(ctx: MailSession, lines: Iterable[str]) -> int:
    """Run every command of a mail against the session ``ctx``; returns how many commands it found
    (order lines not counted: ``ctx.orders_accepted`` counts the valid ones)."""
    errors_before_signon = 0
    found_count = 0
    all_lines = list(lines)
    for number, line in enumerate(all_lines):
        if number >= MAX_LINES:
            _skip_rest(ctx, all_lines, number, f"message too long: only its first {MAX_LINES} lines are read")
            break
        if ctx.collector is not None:
            if line.strip().upper() in END_PRESS or line.rstrip() == "--":
                ctx.finish_collector()
                if line.strip().upper() in ("SIGNOFF", "SIGN OFF") or line.rstrip() == "--":
                    break  # a signature ends the press and the mail: what follows it is no command
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
                order = _LIST_MARK.sub("", stripped.partition("//")[0].rstrip())  # ``// to Bur``: a DPjudge comment
                if order:
                    ctx.order_line(order)
                continue
            errors_before_signon += 1
            ctx.echo(stripped, [ctx.not_a_command_reason()])
            if errors_before_signon >= MAX_ERRORS_BEFORE_SIGNON:
                _skip_rest(ctx, all_lines, number + 1, f"{MAX_ERRORS_BEFORE_SIGNON} lines were not commands")
                break
            continue
        found_count += 1
        ctx.echo(_masked(found, stripped), [])
        ctx.flush_orders()
        try:
            ctx.require(found.command.role)
            found.command.process(ctx, found.args)
        except NeedsConfirmation as waiting:
            try:
                ctx.ask_confirmation(number, waiting.what)
            except CommandError as error:  # a mail that cannot wait (not stored: no inbound row)
                ctx.add_note(f"Error: {refusal_text(error)}")
                break
            rest = sum(1 for line in all_lines[number + 1:] if line.strip())
            if rest:
                ctx.echo(f"(the {rest} non-blank line{'s' if rest != 1 else ''} after it wait for the confirmation "
                         f"too)", [])
            break
        except (CommandError, DomainError) as error:
            ctx.add_note(f"Error: {refusal_text(error)}")
            found.command.refused(ctx, error)
            if ctx.stop_on_error:
                _skip_rest(ctx, all_lines, number + 1, "the sign-on failed")
                break
    if ctx.collector is not None:
        ctx.finish_collector()
    ctx.flush_orders()
    return found_count
