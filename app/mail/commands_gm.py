"""Commands of the game master (signed on as master@game with the master password)."""

from __future__ import annotations

from app.mail.commands import Command, register
from app.mail.errors import CommandError
from app.mail.session import MailSession


class MasterCommand(Command):
    role = "master"


@register
class Start(MasterCommand):
    names = ("START", "ACTIVATE", "FORCE BEGIN")
    help = "START -- (GM) start a forming game once every power has a player."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.lobby import start_game

        start_game(ctx, ctx.require_game())


@register
class Pause(MasterCommand):
    names = ("PAUSE",)
    help = "PAUSE | RESUME -- (GM) stop or restart the clock."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import pause

        pause(ctx)


@register
class Resume(MasterCommand):
    names = ("RESUME",)

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import resume

        resume(ctx)


@register
class Become(MasterCommand):
    names = ("BECOME",)
    help = "BECOME <power> -- (GM) act as that power for the rest of the mail; its player gets a copy."

    def process(self, ctx: MailSession, args: str) -> None:
        pid = ctx.book().find(args.strip())
        if pid is None:
            raise CommandError(f"no power called '{args.strip()}'")
        ctx.become(pid)
        ctx.add_note(f"Acting as {ctx.book().name(pid)}.")


@register
class Eject(MasterCommand):
    names = ("EJECT",)
    help = "EJECT <power|address> -- (GM) remove a player; the power is opened for TAKEOVER."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import eject

        if not args.strip():
            raise CommandError("usage: EJECT <power|address>")
        eject(ctx, args.strip())


@register
class Replace(MasterCommand):
    names = ("REPLACE",)
    help = "REPLACE <power> <address> [password] -- (GM) give a power to a new player."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import replace

        replace(ctx, args)


@register
class Note(MasterCommand):
    names = ("NOTE", "COMMENT")
    help = "NOTE <text> -- (GM) a note published with the next results (the zine's GM notes)."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import add_note

        if not args.strip():
            raise CommandError("usage: NOTE <text>")
        add_note(ctx, args.strip())


@register
class Terminate(MasterCommand):
    names = ("TERMINATE",)
    help = "TERMINATE -- (GM) end the game now."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import terminate

        terminate(ctx)


@register
class SetDeadline(MasterCommand):
    names = ("SET DEADLINE",)
    help = "SET DEADLINE 2026-12-01 20:00 | +48h -- (GM) move this phase's deadline (capped)."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import set_deadline

        set_deadline(ctx, args)


@register
class SetGrace(MasterCommand):
    names = ("SET GRACE",)
    help = "SET GRACE <hours> -- (GM) grace period after every deadline."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import set_timing

        set_timing(ctx, "all", f"GRACE {args.strip()}")


@register
class SetRule(MasterCommand):
    names = ("SET RULE",)
    help = "SET RULE <option> <value> -- (GM) a rule option of this game, e.g. SET RULE victory_groups on."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import set_rule

        set_rule(ctx, args)


class _BoundTiming(MasterCommand):
    kind = "movement"

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import set_timing

        set_timing(ctx, self.kind, args)


@register
class SetMoveTiming(_BoundTiming):
    names = ("SET MOVE", "SET MOVEMENT")
    help = "SET MOVE|RETREAT|ADJUST NEXT <hours> | GRACE <hours> | AT <hh:mm> | DAYS -MTWTF- -- (GM) timing per phase type."
    kind = "movement"


@register
class SetRetreatTiming(_BoundTiming):
    names = ("SET RETREAT",)
    kind = "retreat"


@register
class SetAdjustTiming(_BoundTiming):
    names = ("SET ADJUST", "SET BUILD")
    kind = "adjustment"


class _Option(MasterCommand):
    key = ""

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.gm import set_option

        if not args.strip():
            raise CommandError(f"usage: {self.names[0]} <value>")
        set_option(ctx, self.key, args)


@register
class SetNmr(_Option):
    names = ("SET NMR",)
    help = "SET NMR cd|hold|wait|dismiss|excuse:N -- (GM) what happens to powers without orders."
    key = "nmr"


@register
class SetPress(_Option):
    names = ("SET PRESS",)
    help = "SET PRESS none|white|grey|white/grey|postal -- (GM) the press rules."
    key = "press"


@register
class SetOrders(_Option):
    names = ("SET ORDERS",)
    help = "SET ORDERS per_unit|whole_set -- (GM) per-unit replacement (njudge) or whole sets (DPjudge)."
    key = "orders"


@register
class SetLayout(_Option):
    names = ("SET LAYOUT", "SET RESULTS")
    help = "SET LAYOUT judge|zine -- (GM) the layout of the results."
    key = "layout"


@register
class SetZone(_Option):
    names = ("SET ZONE", "SET TIMEZONE")
    help = "SET ZONE Europe/Paris -- (GM) the game's time zone."
    key = "timezone"


@register
class SetReminder(_Option):
    names = ("SET REMINDER",)
    help = "SET REMINDER <hours> -- (GM) remind late powers this long before the deadline (0: never)."
    key = "reminder_hours"


@register
class SetUnknown(Command):
    names = ("SET",)

    def process(self, ctx: MailSession, args: str) -> None:
        raise CommandError(f"unknown SET option '{args.split()[0] if args.split() else ''}' (see HELP)")
