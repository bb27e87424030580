"""The game master's commands over the course of a game: PROCESS, PREVIEW, ROLLBACK, ROLLFORWARD."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.mail.commands import register
from app.mail.commands_gm import MasterCommand

if TYPE_CHECKING:
    from app.services.mail_session import MailSession


@register
class Process(MasterCommand):
    names = ("PROCESS", "PROCESS!")
    help = "PROCESS [S1901M] -- (GM) process the phase now; naming it guards against a stale command."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.turn_control import process_now

        process_now(ctx, args)


@register
class Preview(MasterCommand):
    names = ("PREVIEW", "PREDICT")
    help = "PREVIEW -- (GM) the results as they would be now, to the GM only; nothing changes."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.turn_control import preview

        preview(ctx)


@register
class Rollback(MasterCommand):
    names = ("ROLLBACK",)
    help = "ROLLBACK [phase] [RESTORE] -- (GM) reopen an earlier phase; RESTORE keeps its orders."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.turn_control import rollback

        rollback(ctx, args)


@register
class Rollforward(MasterCommand):
    names = ("ROLLFORWARD",)
    help = "ROLLFORWARD -- (GM) undo a rollback, if nothing was processed since."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.turn_control import rollforward

        rollforward(ctx)


