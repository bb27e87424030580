"""Commands of a signed-on player: CLEAR, PHASE, STATUS, PRESS, BROADCAST, SET ..., RESIGN."""

from __future__ import annotations

from app.mail.commands.dod3 import status_text
from app.mail.commands.errors import CommandError
from app.mail.commands.parting import PartingCollector
from app.mail.commands.press import refuse_press, start_press
from app.mail.commands.registry import Command, CommandRole, register
from app.mail.commands.session import MailSession
from app.mail.replies.status import render_overview
from app.services.games import identity
from app.services.kernel.render import format_deadline
from app.services.readmodels.game_status import game_overview
from app.services.ruleset.kinds import ruleset_for
from app.services.ruleset.powers import full_stop
from app.services.seats import player, votes
from app.services.seats.absence import end_text as absence_end_text


@register
class Clear(Command):
    names = ("CLEAR",)
    help = "CLEAR -- removes your orders for this phase (or the PHASE you named)."
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        ctx.clear_orders()
        ctx.add_note("Orders cleared.")


@register
class PhaseCommand(Command):
    names = ("PHASE",)
    help = "PHASE F1902M (or PHASE Fall 1902 Movement) -- the orders that follow are for that phase."
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        ctx.set_target_phase(args)
        target = ctx.target_phase
        ctx.add_note(f"Orders that follow are for {target or 'the current phase'}.")


@register
class Status(Command):
    names = ("STATUS",)
    help = ("STATUS -- your current orders (every reply ends with them anyway); from the GM: every power's "
            "player, status, missing orders, WAIT and last mail.")
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        if ctx.game is not None and "dod3" in ruleset_for(ctx.game.variant).help_topics:
            ctx.add_section(status_text(ctx))  # a DoD III game has no orders: its status report (unwrapped)
            return
        actor = ctx.actor()
        if actor.power:
            ctx.want_status(actor.power)
        elif actor.is_gm:  # the GM sees every power (issue 8.14)
            ctx.add_section(render_overview(game_overview(ctx.judge, ctx.uow, actor)))


@register
class PressCommand(Command):
    names = ("PRESS", "POSTAL PRESS")
    help = "PRESS [TO powers | TO ALL BUT powers] [GREY] ... ENDPRESS -- a message to other powers."
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        start_press(ctx, args, broadcast=False)

    def refused(self, ctx: MailSession, error: Exception) -> None:
        refuse_press(ctx, error)


@register
class BroadcastCommand(Command):
    names = ("BROADCAST",)
    help = "BROADCAST [GREY] ... ENDPRESS -- a message to everyone in the game."
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        start_press(ctx, args, broadcast=True)

    def refused(self, ctx: MailSession, error: Exception) -> None:
        refuse_press(ctx, error)


@register
class EndPress(Command):
    names = ("ENDPRESS", "END PRESS", "ENDBROADCAST")
    help = ""

    def process(self, ctx: MailSession, args: str) -> None:
        raise CommandError("ENDPRESS without PRESS")


class _Wait(Command):
    role = CommandRole.PLAYER
    wait = True

    def process(self, ctx: MailSession, args: str) -> None:
        player.set_wait(ctx.judge, ctx.uow, ctx.actor(), self.wait)
        ctx.add_note("WAIT set: no early processing." if self.wait else "NOWAIT: the phase may be processed early.")


@register
class SetWait(_Wait):
    names = ("SET WAIT",)
    help = "SET WAIT | SET NOWAIT -- hold off (or allow) early processing of this phase."


@register
class SetNoWait(_Wait):
    names = ("SET NOWAIT", "SET NO WAIT")
    wait = False


def _lasts(one_phase: bool, withdraw: str) -> str:
    if one_phase:
        return "  It is good for this phase only (SET DRAW EXPIRES PHASE): vote again after it is processed."
    return f"  Your vote stands until you withdraw it ({withdraw})."


def _draw(ctx: MailSession, powers: str | None) -> None:
    vote = votes.set_draw(ctx.judge, ctx.uow, ctx.actor(), powers)
    if powers is None:
        ctx.add_note("Draw vote withdrawn.")
        return
    if vote.dias:
        text = f"You vote for a draw including all survivors (DIAS): now {full_stop(', '.join(vote.power_names))}"
    else:
        text = f"You vote for a draw between {full_stop(', '.join(vote.power_names))}"
    ctx.add_note(text + ("" if vote.game_over else _lasts(vote.one_phase, "SET NODRAW")))


@register
class SetDraw(Command):
    names = ("SET DRAW",)
    help = ("SET DRAW [powers] | SET NODRAW -- vote for a draw: alone, including all survivors (DIAS); "
            "or among the powers named.")
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        _draw(ctx, args)


@register
class SetNoDraw(Command):
    names = ("SET NODRAW", "SET NO DRAW")
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        _draw(ctx, None)


def _concede(ctx: MailSession, power: str | None) -> None:
    concession = votes.set_concede(ctx.judge, ctx.uow, ctx.actor(), power)
    if concession.power is None:
        ctx.add_note("Concession withdrawn.")
    elif concession.game_over or not concession.one_phase:
        ctx.add_note(f"You concede to {full_stop(concession.power_name or '')}")
    else:
        ctx.add_note(f"You concede to {full_stop(concession.power_name or '')}" + _lasts(True, ""))


@register
class SetConcede(Command):
    names = ("SET CONCEDE",)
    help = "SET CONCEDE <power> | SET NOCONCEDE -- concede the game to a power."
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        if not args.strip():
            raise CommandError("usage: SET CONCEDE <power>")
        _concede(ctx, args)


@register
class SetNoConcede(Command):
    names = ("SET NOCONCEDE", "SET NO CONCEDE")
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        _concede(ctx, None)


@register
class SetAbsence(Command):
    names = ("SET ABSENCE", "SET VACATION", "SET HOLIDAY")
    help = ("SET ABSENCE 2026-12-01 TO 2026-12-07 -- no deadline falls in your absence (14 days at most, "
            "14 days in any 60).")
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        start, _, end = args.upper().partition(" TO ")
        absence = player.set_absence(ctx.judge, ctx.uow, ctx.actor(), start, end)
        note = (f"Absence recorded from {format_deadline(absence.start, absence.timezone)} "
                f"to {absence_end_text(absence.end, absence.timezone)}.")
        ctx.add_note(note + (" The deadline moved after it." if absence.deadline_moved else ""))


@register
class SetPassword(Command):
    names = ("SET PASSWORD",)
    help = "SET PASSWORD <new password> -- at least 8 characters; your personal reply address changes too."
    role = CommandRole.PLAYER
    secret_args = True
    secret_from = 0

    def process(self, ctx: MailSession, args: str) -> None:
        new_address = player.set_password(ctx.judge, ctx.uow, ctx.actor(), args.strip())
        ctx.add_note("Password changed." + (" Your personal reply address changed too: the old one no longer "
                                            "signs you on." if new_address else ""))


@register
class NewToken(Command):
    names = ("NEW TOKEN", "NEWTOKEN", "RENEW TOKEN")
    help = "NEW TOKEN -- a new personal reply address (judge+...@); the old one no longer signs you on."
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        identity.renew_token(ctx.judge, ctx.uow, ctx.actor())
        ctx.add_note("Your personal reply address was changed: the old one no longer signs you on.  The new one "
                     "is the Reply-To of the judge's mails to your registered address.")


_WAITS = ("Waiting for {address} to confirm: the judge mailed it one short confirmation, and the change is made "
          "only when it answers.  Until then the judge writes to the address it writes to now.")

@register
class SetAddress(Command):
    names = ("SET ADDRESS",)
    help = "SET ADDRESS [address] -- where the judge writes to you (default: this mail's sender)."
    role = CommandRole.PLAYER

    def process(self, ctx: MailSession, args: str) -> None:
        changed = player.set_address(ctx.judge, ctx.uow, ctx.actor(), args)
        ctx.add_note(_WAITS.format(address=changed.address) if changed.pending else
                     f"Address changed to {changed.address}.")


@register
class Resign(Command):
    names = ("RESIGN", "WITHDRAW")
    help = ("RESIGN [Fgame password] -- give up your power; it is opened for TAKEOVER.  The lines after it, "
            "up to ENDPRESS, are a parting message to everyone (DPjudge).")
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) == 1:  # RESIGN <password>? not a form of RESIGN: nothing is resigned
            raise CommandError("say RESIGN alone once signed on, or RESIGN <power letter><game> <password>")
        if len(words) >= 2:
            ctx.sign_on(words[0], words[1])
        elif ctx.game is None:
            raise CommandError("sign on first, or RESIGN <power letter><game> <password>")
        ctx.require_game()
        ctx.collector = PartingCollector()  # the resignation takes effect after the parting message
