"""Press: messages between powers (or to everyone), sent now or published with the next results."""

from __future__ import annotations

from dataclasses import dataclass

from app.db.models import Game, Press
from app.db.statuses import SeatRole, SeatStatus
from app.services.errors import DomainError
from app.services.kernel.access import actor_game, book_of
from app.services.kernel.actor import Actor, Role
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.text_clean import clean_text
from app.services.kernel.uow import OrdersChanged, UnitOfWork
from app.services.mailout.notify import mail_master, mail_seat
from app.services.ruleset.options import options_of
from app.services.ruleset.powers import PowerBook

__all__ = ["PressPlan", "PressRequest", "PressSent", "plan_press", "send_press"]

MAX_PRESS_CHARS = 20000


@dataclass(frozen=True)
class PressRequest:
    """What the sender asked for: to everyone, or to (or all but) the powers named, and the master."""

    broadcast: bool
    powers: str = ""  # a list of power names; empty with ``broadcast`` False means nobody but the master
    exclude: bool = False  # to all powers but those named
    to_master: bool = False
    grey: bool = False  # asked for grey (anonymous) press
    white: bool = False  # asked for white press


@dataclass(frozen=True)
class PressPlan:
    """Checked against the game's press rules: whom it goes to."""

    broadcast: bool
    recipients: tuple[str, ...]
    grey: bool
    to_master: bool = False
    to_observers: bool = False


@dataclass(frozen=True)
class PressSent:
    postal: bool  # stored, to be published with the next results
    to_names: tuple[str, ...]  # empty for a broadcast
    mails: int = 0


def plan_press(judge: Judge, uow: UnitOfWork, actor: Actor, request: PressRequest) -> PressPlan:
    """Refuse press the game's rules do not allow, or to no one.  The GM's own press (not as a power
    it BECAME) is held to no press rule: it is always allowed, and always signed (issue 28.6)."""
    game = actor_game(uow, actor)
    rules = game.press.lower()
    gm_own = actor.is_gm and not actor.power
    if rules == "none" and not gm_own:
        raise DomainError("no_press", f"game '{game.name}' has no press")
    if actor.role == Role.OBSERVER:
        _check_observer_press(game, request)
    if rules == "white" and request.grey:
        raise DomainError("white_only", "this game has white press only")
    if rules == "grey" and request.white:
        raise DomainError("grey_only", "this game has grey press only")
    grey = (request.grey or rules == "grey") and not gm_own
    book = book_of(judge, game)
    if request.broadcast:
        return PressPlan(True, tuple(book.ids), grey, request.to_master)
    powers, master, observers = _master_and_observers(book, request.powers)
    listed, unknown = book.parse_list(powers)
    if unknown:
        raise DomainError("unknown_powers", f"unknown powers: {', '.join(unknown)}")
    recipients = [p for p in book.ids if p not in listed and p != actor.power] if request.exclude else listed
    to_master = (request.to_master or master) and not request.exclude  # TO ALL BUT ...M: not the master
    to_observers = observers and not request.exclude
    if not recipients and not to_master and not to_observers:
        raise DomainError("no_recipients", "no recipients")
    return PressPlan(False, tuple(recipients), grey, to_master, to_observers)


def _master_and_observers(book: PowerBook, powers: str) -> tuple[str, bool, bool]:
    """njudge's recipient letters: ``M`` the master and ``O`` the observers, alone or among the
    powers' initials (``RTMO``); returns the rest, and whether M and O were named."""
    letters = {p.letter for p in book.powers}
    words: list[str] = []
    master = observers = False
    for word in powers.replace(",", " , ").split():
        upper = word.upper()
        extra = {"M", "O"} - letters
        if (book.find(word) is None and upper.isalpha() and set(upper) & extra
                and set(upper) <= letters | extra):
            master = master or "M" in upper and "M" in extra
            observers = observers or "O" in upper and "O" in extra
            upper = "".join(c for c in upper if c not in extra)
            if upper:
                words.append(upper)
            continue
        words.append(word)
    return " ".join(words), master, observers


def _check_observer_press(game: Game, request: PressRequest) -> None:
    """Observers send press only when the GM allows it (``SET PRESS ... OBSERVERS``), and never grey:
    a reader must always know that an observer, not a power, wrote it."""
    if not options_of(game).observer_press:
        raise DomainError("observer_press", f"observers may not send press in game '{game.name}' (the GM may "
                                            f"allow it)", game=game.name)
    if request.grey or game.press.lower() == "grey":
        raise DomainError("observer_grey", "an observer's press is always signed: observers send no grey press")


def _sender(actor: Actor) -> str:
    if actor.power:
        return actor.power
    if actor.is_gm:
        return "GM"
    if actor.role == Role.OBSERVER:
        return "OBSERVER"
    raise DomainError("not_signed_on", "sign on before sending press")


def send_press(judge: Judge, uow: UnitOfWork, actor: Actor, plan: PressPlan, body: str) -> PressSent:
    """Mail the press now, or store it (postal press) for the next results."""
    db = uow.session
    game: Game = actor_game(uow, actor)
    body = clean_text(body).strip("\n")  # no terminal escapes, controls or bidi overrides stored or relayed
    if not body.strip():
        raise DomainError("empty_press", "empty press: nothing sent")
    if len(body) > MAX_PRESS_CHARS:
        raise DomainError("press_too_long", f"press longer than {MAX_PRESS_CHARS} characters: nothing sent")
    sender = _sender(actor)
    postal = options_of(game).postal_press
    book = book_of(judge, game)
    db.add(Press(game_id=game.id, phase=game.phase, sender=sender, recipients=list(plan.recipients),
                 broadcast=plan.broadcast, grey=plan.grey, postal=postal, body=body))
    uow.record(OrdersChanged(game.id))  # a message restarts the quiet period of early processing
    names = () if plan.broadcast else (*(book.name(p) for p in plan.recipients),
                                       *(("the GM",) if plan.to_master else ()),
                                       *(("the observers",) if plan.to_observers else ()))
    if sender == "GM":  # the GM's own press: a broadcast, a message to one player (issue 28.2, 28.6)
        audit(uow, actor, game, "broadcast" if plan.broadcast else "press",
              to="everyone" if plan.broadcast else ", ".join(names), text=body)
    if postal:
        return PressSent(True, names)
    who = "Someone" if plan.grey else {"GM": "the GM", "OBSERVER": "Observer"}.get(sender) or book.name(sender)
    to_words = "everyone" if plan.broadcast else ", ".join(names)
    heading = f"{'Broadcast message' if plan.broadcast else 'Message'} from {who} to {to_words} in '{game.name}':"
    text = f"{heading}\n\n{body}\n\n(Reply to this mail to answer the judge, not the sender.)\n"
    subject = f"Diplomacy press {game.name} {game.phase or ''}".strip()
    sent = 0
    for seat in game.players:
        if seat.status not in (SeatStatus.ACTIVE, SeatStatus.ABSENT, SeatStatus.CD):
            continue
        if seat.role == SeatRole.OBSERVER and not (plan.broadcast or plan.to_observers):
            continue
        if seat.role == SeatRole.PLAYER and not plan.broadcast and seat.power not in plan.recipients:
            continue
        if seat.role == SeatRole.PLAYER and seat.power == sender:
            continue
        mail_seat(uow, judge, seat, subject, text, kind="press")
        sent += 1
    if (plan.to_master or plan.broadcast) and sender != "GM":
        mail_master(uow, judge, game, subject, text, kind="press")
        sent += 1
    return PressSent(False, names, sent)
