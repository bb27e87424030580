"""Commands of a signed-on player: CLEAR, PHASE, STATUS, PRESS, BROADCAST, SET ..., RESIGN."""

from __future__ import annotations

from app.mail.commands import Command, register
from app.mail.errors import CommandError
from app.mail.session import MailSession


@register
class Clear(Command):
    names = ("CLEAR",)
    help = "CLEAR -- removes your orders for this phase (or the PHASE you named)."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        ctx.clear_orders()
        ctx.add_note("Orders cleared.")


@register
class PhaseCommand(Command):
    names = ("PHASE",)
    help = "PHASE F1902M (or PHASE Fall 1902 Movement) -- the orders that follow are for that phase."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        ctx.set_target_phase(args)
        ctx.add_note(f"Orders that follow are for {ctx.target_phase or 'the current phase'}.")


@register
class Status(Command):
    names = ("STATUS",)
    help = "STATUS -- your current orders (every reply ends with them anyway)."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        game = ctx.require_game()
        if ctx.power:
            ctx._want_status(game, ctx.power)


@register
class PressCommand(Command):
    names = ("PRESS", "POSTAL PRESS")
    help = "PRESS [TO powers | TO ALL BUT powers] [GREY] ... ENDPRESS -- a message to other powers."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.press import start_press

        start_press(ctx, args, broadcast=False)


@register
class BroadcastCommand(Command):
    names = ("BROADCAST",)
    help = "BROADCAST [GREY] ... ENDPRESS -- a message to everyone in the game."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.press import start_press

        start_press(ctx, args, broadcast=True)


@register
class EndPress(Command):
    names = ("ENDPRESS", "END PRESS", "ENDBROADCAST")
    help = ""

    def process(self, ctx: MailSession, args: str) -> None:
        raise CommandError("ENDPRESS without PRESS")


@register
class SetWait(Command):
    names = ("SET WAIT",)
    help = "SET WAIT | SET NOWAIT -- hold off (or allow) early processing of this phase."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.player import set_wait

        set_wait(ctx, True)


@register
class SetNoWait(Command):
    names = ("SET NOWAIT", "SET NO WAIT")
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.player import set_wait

        set_wait(ctx, False)


@register
class SetDraw(Command):
    names = ("SET DRAW",)
    help = "SET DRAW [powers] | SET NODRAW -- vote for a draw (among all survivors, or those named)."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.player import set_draw

        set_draw(ctx, args)


@register
class SetNoDraw(Command):
    names = ("SET NODRAW", "SET NO DRAW")
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.player import set_draw

        set_draw(ctx, None)


@register
class SetConcede(Command):
    names = ("SET CONCEDE",)
    help = "SET CONCEDE <power> | SET NOCONCEDE -- concede the game to a power."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.player import set_concede

        if not args.strip():
            raise CommandError("usage: SET CONCEDE <power>")
        set_concede(ctx, args)


@register
class SetNoConcede(Command):
    names = ("SET NOCONCEDE", "SET NO CONCEDE")
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.player import set_concede

        set_concede(ctx, "")


@register
class SetAbsence(Command):
    names = ("SET ABSENCE", "SET VACATION", "SET HOLIDAY")
    help = "SET ABSENCE 2026-12-01 TO 2026-12-07 -- no deadline falls in your absence (14 days at most)."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.player import set_absence

        set_absence(ctx, args)


@register
class SetPassword(Command):
    names = ("SET PASSWORD",)
    help = "SET PASSWORD <new password>"
    role = "player"
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.player import set_password

        set_password(ctx, args.strip())


@register
class SetAddress(Command):
    names = ("SET ADDRESS",)
    help = "SET ADDRESS [address] -- where the judge writes to you (default: this mail's sender)."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.player import set_address

        set_address(ctx, args)


@register
class Resign(Command):
    names = ("RESIGN", "WITHDRAW")
    help = "RESIGN [Fgame password] -- give up your power; it is opened for TAKEOVER."
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.player import resign

        words = args.split()
        if len(words) >= 2:
            ctx.sign_on(words[0], words[1])
        elif ctx.game is None:
            raise CommandError("sign on first, or RESIGN <power letter><game> <password>")
        resign(ctx)
