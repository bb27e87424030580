"""CONTEST <phase> <text>: a player contests the adjudication of a processed phase; the GM answers."""

from __future__ import annotations

from app.mail.commands.errors import CommandError
from app.mail.commands.registry import Command, CommandRole, register
from app.mail.commands.session import MailSession
from app.services.games.contests import contest_phase


@register
class ContestCommand(Command):
    names = ("CONTEST",)
    help = "CONTEST <phase> <what is wrong> -- contests the adjudication of a processed phase; the GM answers."
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        words = args.split(None, 1)
        if len(words) < 2:
            raise CommandError("usage: CONTEST <phase> <what is wrong>, e.g. CONTEST S1901M my army was supported")
        filed = contest_phase(ctx.judge, ctx.uow, ctx.actor(), words[0], words[1])
        ctx.add_note(f"Your contest of {filed.phase} was sent to the GM (contest {filed.id}); "
                     "you will get the answer by mail.")
