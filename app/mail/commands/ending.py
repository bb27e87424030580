"""The end of a game by mail (issue 28.8, 28.12): the GM's ruling ``DECLARE DRAW [powers]`` /
``DECLARE CONCESSION power`` with a statement on the lines that follow (up to ``ENDSTATEMENT``), and
how long the players' draw votes stand (``SET DRAW EXPIRES PHASE|NEVER``, njudge's one phase)."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.mail.commands.errors import CommandError
from app.mail.commands.registry import Command, CommandRole, register
from app.mail.commands.session import MailSession
from app.services.games import gm
from app.services.games.ending import declare_end, plan_end
from app.services.kernel.access import actor_game
from app.services.ruleset.powers import full_stop

__all__ = ["DeclareConcession", "DeclareDraw", "SetDrawExpires"]


@dataclass
class StatementCollector:
    """The GM's statement: the lines after ``DECLARE ...`` up to ``ENDSTATEMENT`` (or ``ENDPRESS``,
    ``SIGNOFF``, a signature, the end of the mail); then the game is ended."""

    how: str
    powers: str
    lines: list[str] = field(default_factory=list)

    def append(self, line: str) -> None:
        self.lines.append(line)

    def finish(self, ctx: MailSession) -> None:
        game = actor_game(ctx.uow, ctx.actor())
        ended = declare_end(ctx.judge, ctx.uow, ctx.actor(), game, self.how, self.powers, "\n".join(self.lines))
        said = " with your statement" if any(line.strip() for line in self.lines) else ""
        what = (f"a draw between {full_stop(', '.join(ended.power_names))}" if ended.how == "draw"
                else f"conceded to {full_stop(ended.power_names[0])}")
        ctx.add_note(f"Game '{ended.game}' is over: {what}  Everyone was told{said} ({ended.mails} mails).")


@dataclass
class SkippedStatement:
    """The statement of a refused DECLARE: read up to ENDSTATEMENT and dropped, never run."""

    count: int = 0

    def append(self, line: str) -> None:
        self.count += bool(line.strip())

    def finish(self, ctx: MailSession) -> None:
        if self.count:
            ctx.add_note(f"The game goes on; the {self.count} line(s) of the statement were skipped.")


class _Declare(Command):
    role = CommandRole.MASTER
    how = ""

    def process(self, ctx: MailSession, args: str) -> None:
        if self.how == "concession" and not args.strip():
            raise CommandError("say which power: DECLARE CONCESSION <power>")
        plan_end(ctx.judge, ctx.uow, ctx.actor(), actor_game(ctx.uow, ctx.actor()), self.how, args)  # refused now
        ctx.collector = StatementCollector(self.how, args)

    def refused(self, ctx: MailSession, error: Exception) -> None:
        if ctx.collector is None:
            ctx.collector = SkippedStatement()


@register
class DeclareDraw(_Declare):
    names = ("DECLARE DRAW",)
    help = ("DECLARE DRAW [powers] | DECLARE CONCESSION <power> -- (GM) end the game by your ruling: a draw "
            "(all the survivors, or those named) or a concession; the lines that follow, up to ENDSTATEMENT, "
            "are your statement.")
    how = "draw"


@register
class DeclareConcession(_Declare):
    names = ("DECLARE CONCESSION", "DECLARE CONCEDE")
    how = "concession"


@register
class SetDrawExpires(Command):
    names = ("SET DRAW EXPIRES", "SET DRAWS EXPIRE")
    help = ("SET DRAW EXPIRES PHASE | NEVER -- (GM) draw votes and concessions are good for one phase (as on "
            "njudge), or stand until withdrawn (the default).")
    role = CommandRole.MASTER

    def process(self, ctx: MailSession, args: str) -> None:
        choice = gm.set_option(ctx.judge, ctx.uow, ctx.actor(), "draw_expires", args)
        ctx.add_note("Draw votes and concessions are now good for one phase." if choice == "phase"
                     else "Draw votes and concessions now stand until withdrawn.")
