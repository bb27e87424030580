"""The game master's commands over who plays and who runs a game: ``DUMMY`` and ``REVIVE``
(DPjudge's words: civil disorder by hand, and a power given back to its player; issue 28.7),
``PROMOTE``, ``DEMOTE`` and ``HANDOVER`` (njudge's PROMOTE: co-GMs, and a game handed to one;
issue 28.5).  Each parses its words, calls one use case and says what it did."""

from __future__ import annotations

from app.mail.commands.errors import CommandError
from app.mail.commands.gm import MasterCommand
from app.mail.commands.registry import register
from app.mail.commands.session import MailSession
from app.services.games import co_masters
from app.services.games.dummy import dummy, revive


def _one_word(args: str, usage: str) -> str:
    words = args.split()
    if len(words) != 1:
        raise CommandError(f"usage: {usage}")
    return words[0]


@register
class Dummy(MasterCommand):
    names = ("DUMMY",)
    help = "DUMMY <power> -- (GM) put a power into civil disorder now; its player can no longer act for it."

    def process(self, ctx: MailSession, args: str) -> None:
        done = dummy(ctx.judge, ctx.uow, ctx.actor(), _one_word(args, "DUMMY <power>"))
        ctx.add_note(f"{done.power_name} is in civil disorder; the board is told. REVIVE {done.power_name} gives it "
                     f"back to {done.address}.")


@register
class Revive(MasterCommand):
    names = ("REVIVE",)
    help = "REVIVE <power> -- (GM) give a power in civil disorder back to its player (mailed a new password)."

    def process(self, ctx: MailSession, args: str) -> None:
        done = revive(ctx.judge, ctx.uow, ctx.actor(), _one_word(args, "REVIVE <power>"))
        ctx.add_note(f"{done.power_name} is played again by {done.address} (mailed a new password); the board is "
                     "told.")


@register
class Promote(MasterCommand):
    names = ("PROMOTE",)
    help = "PROMOTE <address> -- (GM) make an address a co-GM of the game (it runs it from the dashboard)."

    def process(self, ctx: MailSession, args: str) -> None:
        address = co_masters.add_co_master(ctx.judge, ctx.uow, ctx.actor(), _one_word(args, "PROMOTE <address>"))
        ctx.add_note(f"{address} is a co-GM of the game (told by mail; it signs in to the dashboard with a code "
                     "mailed to it).")


@register
class Demote(MasterCommand):
    names = ("DEMOTE",)
    help = "DEMOTE <address> -- (GM) an address is no longer a co-GM of the game."

    def process(self, ctx: MailSession, args: str) -> None:
        address = co_masters.remove_co_master(ctx.judge, ctx.uow, ctx.actor(), _one_word(args, "DEMOTE <address>"))
        ctx.add_note(f"{address} is no longer a co-GM of the game.")


@register
class Handover(MasterCommand):
    names = ("HANDOVER", "HAND OVER")
    help = "HANDOVER <address> -- (GM) hand the game to one of its co-GMs; you stay a co-GM."

    def process(self, ctx: MailSession, args: str) -> None:
        done = co_masters.hand_over(ctx.judge, ctx.uow, ctx.actor(), _one_word(args, "HANDOVER <address>"))
        ctx.add_note(f"Game '{done.game}' is now run by {done.new_master} (mailed a new master password); you are "
                     "a co-GM of it.")
