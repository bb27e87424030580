"""RESIGN with a parting message (issue 28.21; DPjudge: "RESIGN ... may carry a parting press
message"): the lines after ``RESIGN``, up to ``ENDPRESS`` (or ``SIGNOFF``, a signature, the end of the
mail), are the player's last press, sent to everyone (or, when they begin with ``PRESS TO powers`` or
``BROADCAST``, as that line says); then the power is resigned.  Nothing after RESIGN is read as
orders or commands."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.mail.commands.errors import CommandError
from app.mail.commands.press import parse_press
from app.mail.commands.session import MailSession
from app.services.errors import DomainError
from app.services.games.press import PressRequest, plan_press, send_press
from app.services.seats import player

__all__ = ["PartingCollector", "resign_now"]


def resign_now(ctx: MailSession) -> None:
    """Resign the seat signed on; the answer says what became of it."""
    resigned = player.resign(ctx.judge, ctx.uow, ctx.actor())
    ctx.seat = None
    if resigned.left:
        ctx.add_note("You have left the game.")
    else:
        ctx.add_note(f"You have resigned {resigned.power_name}; the power is open for TAKEOVER.")


@dataclass
class PartingCollector:
    lines: list[str] = field(default_factory=list)

    def append(self, line: str) -> None:
        self.lines.append(line)

    def _request(self) -> tuple[PressRequest, list[str]]:
        """To everyone, unless the first line is a PRESS or BROADCAST line of its own."""
        body = list(self.lines)
        while body and not body[0].strip():
            body.pop(0)
        first = body[0].split() if body else []
        head = first[0].upper() if first else ""
        if head in ("PRESS", "BROADCAST"):
            request = parse_press(body[0].strip()[len(first[0]):], broadcast=head == "BROADCAST")
            if request is None:
                raise CommandError("say PRESS TO <powers>, PRESS TO ALL BUT <powers>, or BROADCAST")
            return request, body[1:]
        return PressRequest(True), body

    def finish(self, ctx: MailSession) -> None:
        if any(line.strip() for line in self.lines):
            try:
                request, body = self._request()
                sent = send_press(ctx.judge, ctx.uow, ctx.actor(), plan_press(ctx.judge, ctx.uow, ctx.actor(), request),
                                  "\n".join(body))
                to_words = "everyone" if request.broadcast else ", ".join(sent.to_names) or "the GM"
                ctx.add_note("Your parting message is stored: it will be published with the next results."
                             if sent.postal else f"Your parting message was sent to {to_words}.")
            except (CommandError, DomainError) as error:
                ctx.add_note(f"Your parting message was NOT sent ({error}).")
        resign_now(ctx)
