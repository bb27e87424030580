"""Commands of the game master (signed on as master@game with the master password)."""

from __future__ import annotations

from typing import ClassVar

from app.mail.commands.errors import CommandError
from app.mail.commands.registry import Command, CommandRole, register
from app.mail.commands.session import MailSession
from app.mail.replies.lobby import render_started
from app.services.games import gm, lobby
from app.services.games.gm import TimingKey
from app.services.kernel.render import format_deadline
from app.services.ruleset.options import parse_days
from app.services.ruleset.phases import PhaseKind
from app.services.seats import absence


class MasterCommand(Command):
    role = CommandRole.MASTER


@register
class Start(MasterCommand):
    names = ("START", "ACTIVATE", "FORCE BEGIN")
    help = "START -- (GM) start a forming game once every power has a player."

    def process(self, ctx: MailSession, args: str) -> None:
        ctx.add_note(render_started(lobby.start_game(ctx.judge, ctx.uow, ctx.actor())))


@register
class Pause(MasterCommand):
    names = ("PAUSE",)
    help = "PAUSE | RESUME -- (GM) stop or restart the clock."

    def process(self, ctx: MailSession, args: str) -> None:
        gm.pause(ctx.judge, ctx.uow, ctx.actor())
        ctx.add_note("Game paused.")


@register
class Resume(MasterCommand):
    names = ("RESUME",)

    def process(self, ctx: MailSession, args: str) -> None:
        deadline = gm.resume(ctx.judge, ctx.uow, ctx.actor())
        ctx.add_note(f"Game resumed; deadline {format_deadline(deadline)}.")


@register
class Become(MasterCommand):
    names = ("BECOME",)
    help = "BECOME <power> -- (GM) act as that power for the rest of the mail; its player gets a copy."

    def process(self, ctx: MailSession, args: str) -> None:
        ctx.add_note(f"Acting as {ctx.become(args.strip())}.")


@register
class Eject(MasterCommand):
    names = ("EJECT",)
    help = "EJECT <power|address> -- (GM) remove a player; the power is opened for TAKEOVER."

    def process(self, ctx: MailSession, args: str) -> None:
        if not args.strip():
            raise CommandError("usage: EJECT <power|address>")
        gm.eject(ctx.judge, ctx.uow, ctx.actor(), args.strip())
        ctx.add_note(f"{args.strip()} ejected; the power is open for TAKEOVER.")


@register
class Replace(MasterCommand):
    names = ("REPLACE",)
    help = "REPLACE <power> <address> [password] -- (GM) give a power to a new player."
    secret_args = True
    secret_from = 2

    def process(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) < 2 or "@" not in words[1]:
            raise CommandError("say REPLACE <power> <address> [password]")
        replaced = gm.replace(ctx.judge, ctx.uow, ctx.actor(), words[0], words[1], words[2] if len(words) > 2 else None)
        ctx.add_note(f"Waiting for {replaced.address} to confirm: the judge mailed it one short confirmation, and "
                     f"it plays {replaced.power_name} only when it answers.  Until then the seat is unchanged."
                     if replaced.pending else f"{replaced.power_name} is now played by {replaced.address}.")


@register
class GrantAbsence(MasterCommand):
    names = ("GRANT ABSENCE",)
    help = "GRANT ABSENCE <power> <days> -- (GM) let a power's player take that many days of absence over the cap."

    def process(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) != 2 or not words[1].isdigit():
            raise CommandError("say GRANT ABSENCE <power> <days>, e.g. GRANT ABSENCE France 7")
        grant = absence.grant_absence(ctx.judge, ctx.uow, ctx.actor(), words[0], int(words[1]))
        ctx.add_note(f"{grant.power_name} may now be absent {grant.cap_days} days in any {grant.window_days} "
                     f"({grant.extra_days} granted over the cap).")


@register
class Note(MasterCommand):
    names = ("NOTE", "COMMENT")
    help = "NOTE <text> -- (GM) a note published with the next results (the zine's GM notes)."

    def process(self, ctx: MailSession, args: str) -> None:
        if not args.strip():
            raise CommandError("usage: NOTE <text>")
        gm.add_note(ctx.judge, ctx.uow, ctx.actor(), args.strip())
        ctx.add_note("Note stored: it will be published with the next results.")


@register
class Terminate(MasterCommand):
    names = ("TERMINATE",)
    help = "TERMINATE -- (GM) end the game now."

    def process(self, ctx: MailSession, args: str) -> None:
        gm.terminate(ctx.judge, ctx.uow, ctx.actor())
        ctx.add_note("Game terminated.")


@register
class SetDeadline(MasterCommand):
    names = ("SET DEADLINE",)
    help = ("SET DEADLINE 2026-12-01 20:00 | +48h [CONFIRM] -- (GM) move this phase's deadline (capped); "
            "CONFIRM sets it inside a player's absence.")

    def process(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        confirm = bool(words) and words[-1].upper() == "CONFIRM"
        when = " ".join(words[:-1]) if confirm else args
        deadline = gm.set_deadline(ctx.judge, ctx.uow, ctx.actor(), when, confirm=confirm)
        ctx.add_note(f"Deadline set to {format_deadline(deadline)}.")


_TIMING_KEYS: dict[str, TimingKey] = {"NEXT": "next_hours", "GRACE": "grace_hours", "AT": "at", "DAYS": "days"}


def _set_timing(ctx: MailSession, kind: str, args: str) -> None:
    """``SET MOVE NEXT 48``, ``SET RETREAT GRACE 12``, ``SET ADJUST AT 20:00``, ``SET MOVE DAYS -MTWTF-``,
    ``SET GRACE 24``."""
    ctx.require_game()
    words = args.upper().split()
    if len(words) != 2 or words[0] not in _TIMING_KEYS:
        raise CommandError("say SET MOVE|RETREAT|ADJUST NEXT|GRACE <hours>, AT <hh:mm> or DAYS -MTWTF-")
    key = _TIMING_KEYS[words[0]]
    value: float | str | None
    if key == "days":
        try:
            value = parse_days(words[1])
        except ValueError as error:
            raise CommandError(str(error)) from error
    elif key == "at":
        value = None if words[1] in ("NONE", "OFF") else words[1]
    else:
        try:
            value = float(words[1].rstrip("H"))
        except ValueError as error:
            raise CommandError("hours must be a number") from error
    timing = gm.set_timing(ctx.judge, ctx.uow, ctx.actor(), kind, key, value)
    ctx.add_note(f"{', '.join(timing.kinds)}: {key.replace('_', ' ')} = {timing.value}.")


@register
class SetGrace(MasterCommand):
    names = ("SET GRACE",)
    help = "SET GRACE <hours> -- (GM) grace period after every deadline."

    def process(self, ctx: MailSession, args: str) -> None:
        _set_timing(ctx, "all", f"GRACE {args.strip()}")


_RULE_WORDS: dict[str, bool] = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


@register
class SetRule(MasterCommand):
    names = ("SET RULE",)
    help = "SET RULE <option> <value> -- (GM) a rule option of this game, e.g. SET RULE victory_groups on."

    def process(self, ctx: MailSession, args: str) -> None:
        """``SET RULE victory_groups on``, ``SET RULE removal_default civil_disorder``,
        ``SET RULE edition 1971``; ``SET RULE <option> default`` drops the game's choice."""
        ctx.require_game()
        words = args.split()
        if len(words) != 2:
            raise CommandError("say SET RULE <option> <value>, e.g. SET RULE victory_groups on")
        name, text = words[0].lower(), words[1].lower()
        value = None if text == "default" else _RULE_WORDS.get(text, text)
        stored = gm.set_rule(ctx.judge, ctx.uow, ctx.actor(), name, value)
        ctx.add_note(f"Rule {name} = {'the variant default' if stored is None else stored}.")


class _BoundTiming(MasterCommand):
    kind = PhaseKind.MOVEMENT.word

    def process(self, ctx: MailSession, args: str) -> None:
        _set_timing(ctx, self.kind, args)


@register
class SetMoveTiming(_BoundTiming):
    names = ("SET MOVE", "SET MOVEMENT")
    help = "SET MOVE|RETREAT|ADJUST NEXT <hours> | GRACE <hours> | AT <hh:mm> | DAYS -MTWTF- -- (GM) timing per phase type."
    kind = PhaseKind.MOVEMENT.word


@register
class SetRetreatTiming(_BoundTiming):
    names = ("SET RETREAT",)
    kind = PhaseKind.RETREAT.word


@register
class SetAdjustTiming(_BoundTiming):
    names = ("SET ADJUST", "SET BUILD")
    kind = PhaseKind.ADJUSTMENT.word


class _Option(MasterCommand):
    key: ClassVar[str] = ""

    def process(self, ctx: MailSession, args: str) -> None:
        if not args.strip():
            raise CommandError(f"usage: {self.names[0]} <value>")
        value = gm.set_option(ctx.judge, ctx.uow, ctx.actor(), self.key, args)
        ctx.add_note(f"{self.key} set to {value}.")


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
class SetTakeover(MasterCommand):
    names = ("SET TAKEOVER",)
    help = "SET TAKEOVER open|approval -- (GM) may anyone take a vacant power, or only with your approval (default)."

    def process(self, ctx: MailSession, args: str) -> None:
        if not args.strip():
            raise CommandError("usage: SET TAKEOVER open|approval")
        value = gm.set_option(ctx.judge, ctx.uow, ctx.actor(), "takeover", args)
        ctx.add_note("Takeovers are open: anyone may take a vacant power." if value == "open" else
                     "Takeovers need your approval: you are mailed each request; approve it with REPLACE.")


@register
class SetEarly(MasterCommand):
    names = ("SET EARLY",)
    help = ("SET EARLY <minutes> | off -- (GM) once every power has complete orders, process this long after "
            "the last change (default 20; 0: at once); off: only at the deadline.")

    def process(self, ctx: MailSession, args: str) -> None:
        if not args.strip():
            raise CommandError("usage: SET EARLY <minutes> (0 or more) or SET EARLY off")
        value = gm.set_option(ctx.judge, ctx.uow, ctx.actor(), "early_minutes", args)
        if value == "off":
            ctx.add_note("Early processing is off: phases are processed at their deadline.")
        elif value == "on":
            ctx.add_note("Early processing is on.")
        else:
            ctx.add_note(f"Early processing: {value} after the last change once every power has complete orders.")


@register
class SetUnknown(Command):
    names = ("SET",)

    def process(self, ctx: MailSession, args: str) -> None:
        raise CommandError(f"unknown SET option '{args.split()[0] if args.split() else ''}' (see HELP)")
