"""The game master's commands over the course of a game: PROCESS, PREVIEW, ROLLBACK, ROLLFORWARD.

Each parses its words, calls one use case of ``app/services/turns/control.py`` and renders the
value it returns into the reply.
"""

from __future__ import annotations

from app.mail.commands.gm import MasterCommand
from app.mail.commands.refusals import refusal_text
from app.mail.commands.registry import CommandError, register
from app.mail.commands.session import MailSession
from app.services.errors import DomainError
from app.services.mailout.notify import mail_master
from app.services.ruleset.options import options_of
from app.services.turns import control as turn_control
from app.services.turns.publish import render_results


@register
class Process(MasterCommand):
    names = ("PROCESS", "PROCESS!")
    help = "PROCESS [S1901M] -- (GM) process the phase now; naming it guards against a stale command."

    def process(self, ctx: MailSession, args: str) -> None:
        game = ctx.require_game()
        ctx.flush_orders()
        expected = args.split()[0] if args.strip() else None
        try:
            outcome = turn_control.process_now(ctx.judge, ctx.uow, ctx.actor(), game, expected)
        except DomainError as error:
            raise CommandError(refusal_text(error)) from error
        ctx.add_note(f"Processed {outcome.phase}; results sent ({outcome.mails} mails)."
                     + (f" Next phase {outcome.next_phase}." if outcome.next_phase else " The game is over."))


@register
class Preview(MasterCommand):
    names = ("PREVIEW", "PREDICT")
    help = "PREVIEW -- (GM) the results as they would be now, to the GM only; nothing changes."

    def process(self, ctx: MailSession, args: str) -> None:
        game = ctx.require_game()
        ctx.flush_orders()
        try:
            preview = turn_control.preview_turn(ctx.judge, ctx.uow, ctx.actor(), game)
        except DomainError as error:
            raise CommandError(refusal_text(error)) from error
        text, _html = render_results(ctx.judge, preview.view, options_of(game).layout)
        mail_master(ctx.uow, ctx.judge, game, f"Diplomacy preview {game.name} {preview.phase}", text, kind="preview",
                    map_id=preview.map_id)
        ctx.add_note("Preview results sent to the master only; nothing has changed.")


@register
class Rollback(MasterCommand):
    names = ("ROLLBACK",)
    help = ("ROLLBACK [phase] [RESTORE] [FULL] -- (GM) reopen an earlier phase with the advance orders and the "
            "seats as they were; RESTORE keeps its orders; FULL also the players and settings.")

    def process(self, ctx: MailSession, args: str) -> None:
        game = ctx.require_game()
        words = args.upper().split()
        restore = "RESTORE" in words
        full = "FULL" in words
        words = [w for w in words if w not in ("RESTORE", "FULL")]
        try:
            done = turn_control.rollback(ctx.judge, ctx.uow, ctx.actor(), game, words[0] if words else None, restore,
                                         full=full)
        except DomainError as error:
            raise CommandError(refusal_text(error)) from error
        ctx.add_note(f"Rolled back to {done.phase}{' (FULL)' if full else ''}.")
        if done.cleared:
            ctx.add_note(f"Orders cleared for {', '.join(done.cleared)}.")


@register
class Rollforward(MasterCommand):
    names = ("ROLLFORWARD",)
    help = "ROLLFORWARD -- (GM) undo a rollback, if nothing was processed since."

    def process(self, ctx: MailSession, args: str) -> None:
        game = ctx.require_game()
        try:
            done = turn_control.rollforward(ctx.judge, ctx.uow, ctx.actor(), game)
        except DomainError as error:
            raise CommandError(refusal_text(error)) from error
        ctx.add_note(f"Rolled forward to {done.phase}.")
