"""What the Days of Decision III mail commands share: the actor of a mail, the refusal of a
use case as a reply line, and the few sentences more than one command says."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import TypeVar

from app.dod3.exact import format_number
from app.dod3.variant import SHORT_NAMES
from app.mail.commands.refusals import refusal_text
from app.mail.commands.registry import Command, CommandError
from app.mail.commands.session import MailSession
from app.services.dod3.store import ROLE
from app.services.errors import DomainError
from app.services.kernel.actor import Actor, Role
from app.services.kernel.outcome import TurnOutcome

__all__ = ["Dod3Command", "actor_of", "name", "refused", "signed", "step_outcome"]

T = TypeVar("T")


def name(power: str) -> str:
    return SHORT_NAMES.get(power, power)


def actor_of(ctx: MailSession) -> Actor:
    """The mail's actor: the session's own when it has one, else built from its sign-on."""
    game = ctx.game
    seat = ctx.seat
    made = getattr(ctx, "actor", None)
    if callable(made):
        actor = made()
        if isinstance(actor, Actor):
            if actor.power is None and seat is not None and seat.role == ROLE and seat.power:
                actor = replace(actor, power=seat.power)  # a DoD III seat acts for its own power
            return actor
    role = Role.GM if ctx.master else Role.PLAYER if seat is not None else Role.ANYONE
    return Actor(address=ctx.sender, role=role, game_id=game.id if game is not None else None,
                 power=seat.power if seat is not None else None)


def refused(call: Callable[[], T]) -> T:
    """Run a use case; its refusal becomes the mail layer's error (an ``Error: ...`` line)."""
    try:
        return call()
    except DomainError as error:
        raise CommandError(refusal_text(error)) from error


class Dod3Command(Command):
    """A DoD III command: ``run`` parses and calls a use case; refusals become reply lines."""

    def process(self, ctx: MailSession, args: str) -> None:
        refused(lambda: self.run(ctx, args))

    def run(self, ctx: MailSession, args: str) -> None:
        raise NotImplementedError


def step_outcome(outcome: TurnOutcome) -> str:
    return f"next step {outcome.next_phase}" if outcome.next_phase else "the game is over"


def signed(value: Fraction) -> str:
    text = format_number(value)
    return text if text.startswith("-") else "+" + text

