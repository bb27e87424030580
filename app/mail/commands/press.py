"""PRESS [TO powers | TO ALL BUT powers] [GREY|WHITE] and BROADCAST: parsed here, the lines collected
up to ENDPRESS, then sent by the press use case."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.mail.commands.errors import CommandError
from app.mail.commands.refusals import refusal_text
from app.mail.commands.session import MailSession
from app.services.games.press import PressPlan, PressRequest, plan_press, send_press

__all__ = ["PressCollector", "RefusedPress", "parse_press", "refuse_press", "start_press"]

_MASTER_WORDS = ("M", "MASTER", "GM")


@dataclass
class PressCollector:
    plan: PressPlan
    lines: list[str] = field(default_factory=list)

    def append(self, line: str) -> None:
        self.lines.append(line)

    def finish(self, ctx: MailSession) -> None:
        sent = send_press(ctx.judge, ctx.uow, ctx.actor(), self.plan, "\n".join(self.lines))
        if sent.postal:
            ctx.add_note("Press stored: it will be published with the next results.")
            return
        to_words = "everyone" if self.plan.broadcast else ", ".join(sent.to_names)
        ctx.add_note(f"Press sent to {to_words} ({sent.mails} mail{'s' if sent.mails != 1 else ''}).")


@dataclass
class RefusedPress:
    """The text of a press that was refused: read up to ENDPRESS and dropped, never run as commands."""

    reason: str
    count: int = 0

    def append(self, line: str) -> None:
        if line.strip():
            self.count += 1

    def finish(self, ctx: MailSession) -> None:
        lines = f"{self.count} line{'s' if self.count != 1 else ''}"
        ctx.add_note(f"The press was NOT sent ({self.reason}); its {lines} up to ENDPRESS were skipped, "
                     f"not read as orders or commands.")


def refuse_press(ctx: MailSession, error: Exception) -> None:
    """A PRESS or BROADCAST line was refused: its text up to ENDPRESS is consumed and dropped."""
    if ctx.collector is None:
        ctx.collector = RefusedPress(refusal_text(error))


def parse_press(options: str, *, broadcast: bool) -> PressRequest | None:
    """The request of a PRESS or BROADCAST line; None when the words after PRESS do not start with TO."""
    words = options.upper().replace(",", " , ").split()
    grey = "GREY" in words or "GRAY" in words
    white = "WHITE" in words
    words = [w for w in words if w not in ("GREY", "GRAY", "WHITE", ",")]
    if broadcast or not words:
        return PressRequest(True, grey=grey, white=white)
    if words[0] != "TO":
        return None
    words = words[1:]
    exclude = words[:2] == ["ALL", "BUT"]
    if exclude:
        words = words[2:]
    to_master = any(w in _MASTER_WORDS for w in words)
    words = [w for w in words if w not in _MASTER_WORDS]
    return PressRequest(False, " ".join(words), exclude, to_master, grey, white)


def start_press(ctx: MailSession, options: str, *, broadcast: bool) -> None:
    """Check the press line now; collect the lines that follow (the finder feeds them)."""
    ctx.require_game()
    request = parse_press(options, broadcast=broadcast)
    if request is None:
        words = options.upper().replace(",", " , ").split()
        plan_press(ctx.judge, ctx.uow, ctx.actor(),
                   PressRequest(True, grey="GREY" in words or "GRAY" in words, white="WHITE" in words))
        raise CommandError("say PRESS TO <powers>, PRESS TO ALL BUT <powers>, or BROADCAST")
    ctx.collector = PressCollector(plan_press(ctx.judge, ctx.uow, ctx.actor(), request))
