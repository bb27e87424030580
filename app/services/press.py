"""Press: PRESS [TO powers | TO ALL BUT powers] [GREY|WHITE] and BROADCAST, up to ENDPRESS."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.db.models import Press
from app.mail.commands import CommandError
from app.services.mail_session import MailSession
from app.services.notify import mail_master, mail_seat
from app.services.timing import game_setting

__all__ = ["PressCollector", "start_press"]

MAX_PRESS_CHARS = 20000


@dataclass
class PressCollector:
    broadcast: bool
    recipients: list[str]
    grey: bool
    to_master: bool = False
    lines: list[str] = field(default_factory=list)

    def append(self, line: str) -> None:
        self.lines.append(line)

    def finish(self, ctx: MailSession) -> None:
        game = ctx.require_game()
        body = "\n".join(self.lines).strip("\n")
        if not body.strip():
            raise CommandError("empty press: nothing sent")
        if len(body) > MAX_PRESS_CHARS:
            raise CommandError(f"press longer than {MAX_PRESS_CHARS} characters: nothing sent")
        sender = ctx.power or ("GM" if ctx.master else None)
        if sender is None:
            if ctx.seat is not None and ctx.seat.role == "observer":
                sender = "OBSERVER"
            else:
                raise CommandError("sign on before sending press")
        postal = bool(game_setting(game.settings, "postal_press"))
        book = ctx.book(game)
        item = Press(game_id=game.id, phase=game.phase, sender=sender, recipients=self.recipients,
                     broadcast=self.broadcast, grey=self.grey, postal=postal, body=body)
        ctx.db.add(item)
        ctx.changed = True
        if postal:
            ctx.add_note("Press stored: it will be published with the next results.")
            return
        who = "Someone" if self.grey else (book.name(sender) if sender not in ("GM", "OBSERVER") else sender.title())
        to_words = "everyone" if self.broadcast else ", ".join(book.name(p) for p in self.recipients)
        heading = f"{'Broadcast message' if self.broadcast else 'Message'} from {who} to {to_words} in '{game.name}':"
        text = f"{heading}\n\n{body}\n\n(Reply to this mail to answer the judge, not the sender.)\n"
        subject = f"Diplomacy press {game.name} {game.phase or ''}".strip()
        sent = 0
        for seat in game.players:
            if seat.status not in ("active", "absent", "cd"):
                continue
            if seat.role == "observer" and not self.broadcast:
                continue
            if seat.role == "player" and not self.broadcast and seat.power not in self.recipients:
                continue
            if seat.role == "player" and seat.power == sender:
                continue
            mail_seat(ctx.db, ctx.judge, seat, subject, text, kind="press")
            sent += 1
        if (self.to_master or self.broadcast) and sender != "GM":
            mail_master(ctx.db, ctx.judge, game, subject, text, kind="press")
        ctx.add_note(f"Press sent to {to_words} ({sent} mail{'s' if sent != 1 else ''}).")


def start_press(ctx: MailSession, options: str, *, broadcast: bool) -> None:
    game = ctx.require_game()
    rules = game.press.lower()
    if rules == "none":
        raise CommandError(f"game '{game.name}' has no press")
    words = options.upper().replace(",", " , ").split()
    grey = "GREY" in words or "GRAY" in words
    white = "WHITE" in words
    words = [w for w in words if w not in ("GREY", "GRAY", "WHITE", ",")]
    if rules == "white" and grey:
        raise CommandError("this game has white press only")
    if rules == "grey" and white:
        raise CommandError("this game has grey press only")
    if rules == "grey":
        grey = True
    book = ctx.book(game)
    recipients: list[str] = list(book.ids)
    to_master = False
    if not broadcast and words:
        if words[0] != "TO":
            raise CommandError("say PRESS TO <powers>, PRESS TO ALL BUT <powers>, or BROADCAST")
        words = words[1:]
        exclude = False
        if words[:3] == ["ALL", "BUT"] or words[:2] == ["ALL", "BUT"]:
            exclude, words = True, words[2:]
        if "M" in words or "MASTER" in words or "GM" in words:
            to_master = True
            words = [w for w in words if w not in ("M", "MASTER", "GM")]
        listed, unknown = book.parse_list(" ".join(words))
        if unknown:
            raise CommandError(f"unknown powers: {', '.join(unknown)}")
        recipients = [p for p in book.ids if p not in listed and p != ctx.power] if exclude else listed
        if not recipients and not to_master:
            raise CommandError("no recipients")
    elif not broadcast:
        broadcast = True
    ctx.collector = PressCollector(broadcast=broadcast, recipients=recipients, grey=grey, to_master=to_master)
