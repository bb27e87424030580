"""What the game master does to the course of a game: process now, preview, roll back and forward."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from app.db import queries
from app.db.models import Game, Phase
from app.mail.commands import CommandError
from app.services.mail_session import MailSession
from app.services.notify import mail_game
from app.services.render import format_deadline
from app.services.turns import ProcessError, preview_turn, process_turn

__all__ = ["preview", "process_now", "rollback", "rollforward"]


def _running(ctx: MailSession) -> Game:
    game = ctx.require_game()
    if game.status not in ("active", "paused"):
        raise CommandError(f"game '{game.name}' is {game.status}")
    return game


def process_now(ctx: MailSession, phase_words: str) -> None:
    game = _running(ctx)
    ctx.flush_orders()
    expected = phase_words.split()[0] if phase_words.strip() else None
    try:
        outcome = process_turn(ctx.db, ctx.judge, game, expected_phase=expected)
    except ProcessError as error:
        raise CommandError(str(error)) from error
    ctx.audit("process", phase=outcome.phase)
    ctx.add_note(f"Processed {outcome.phase}; results sent ({outcome.mails} mails)."
                 + (f" Next phase {outcome.next_phase}." if outcome.next_phase else " The game is over."))


def preview(ctx: MailSession) -> None:
    game = _running(ctx)
    ctx.flush_orders()
    preview_turn(ctx.db, ctx.judge, game)
    ctx.add_note("Preview results sent to the master only; nothing has changed.")


def rollback(ctx: MailSession, args: str) -> None:
    """ROLLBACK [phase] [RESTORE]: reopen an earlier phase; RESTORE keeps its orders."""
    game = ctx.require_game()
    words = args.upper().split()
    restore = "RESTORE" in words
    words = [w for w in words if w not in ("RESTORE", "FULL")]
    processed = queries.phases_of(ctx.db, game.id)
    if not processed:
        raise CommandError("nothing to roll back")
    target = processed[-1]
    if words:
        matches = [p for p in processed if p.code == words[0]]
        if not matches:
            raise CommandError(f"no processed phase {words[0]}")
        target = matches[-1]
    later = list(ctx.db.scalars(select(Phase).where(Phase.game_id == game.id, Phase.seq > target.seq,
                                                    Phase.status != "rolled_back")))
    for phase in later:
        phase.status = "rolled_back"
        queries.clear_orders(ctx.db, game.id, phase.code)
    queries.clear_orders(ctx.db, game.id, target.code)
    if restore and target.orders_received:
        from app.db.models import OrderRow

        for power, lines in (target.orders_parsed or {}).items():
            for index, order in enumerate(lines):
                unit = " ".join(order.split()[:2]) if not order.startswith(("BUILD", "REMOVE", "WAIVE")) \
                    else f"#{order}#{index}"
                ctx.db.add(OrderRow(game_id=game.id, phase=target.code, power=power, unit=unit, line=order,
                                    order=order, checked=True))
    target.status = "open"
    game.phase = target.code
    if game.status == "finished":
        game.status = "active"
    game.deadline = ctx.judge.now() + timedelta(hours=24)
    target.deadline = game.deadline
    game.grace_until = None
    game.version += 1
    ctx.db.flush()
    ctx.audit("rollback", phase=target.code, restore=restore)
    mail_game(ctx.db, ctx.judge, game, f"Diplomacy game {game.name} rolled back",
              f"The master rolled game '{game.name}' back to {target.code}"
              f"{' with its orders' if restore else ''}.  New deadline: {format_deadline(game.deadline)}.\n")
    ctx.add_note(f"Rolled back to {target.code}.")


def rollforward(ctx: MailSession) -> None:
    game = ctx.require_game()
    current = queries.open_phase(ctx.db, game.id)
    if current is None or current.results is None:
        raise CommandError("nothing to roll forward (or the phase was processed again since)")
    redo = list(ctx.db.scalars(select(Phase).where(Phase.game_id == game.id, Phase.seq > current.seq,
                                                   Phase.status == "rolled_back").order_by(Phase.seq)))
    if not redo:
        raise CommandError("nothing to roll forward")
    current.status = "processed"
    seq = current.seq
    for phase in redo:
        if phase.seq != seq + 1:
            break
        phase.status = "processed" if phase.results is not None else "open"
        seq = phase.seq
        if phase.status == "open":
            game.phase, game.deadline = phase.code, phase.deadline
            break
    ctx.db.flush()
    ctx.audit("rollforward", phase=game.phase)
    ctx.add_note(f"Rolled forward to {game.phase}.")


