"""The end of a game by the game master's ruling (issue 28.8): a draw among the powers named (all the
survivors when none is named) or a concession to one power, with the GM's statement.  DPjudge's GM
writes ``RESULT phase victors...`` into the game's status file; here the mail command ``DECLARE DRAW``
/ ``DECLARE CONCESSION`` and the dashboard's "End the game" page call ``declare_end``.  The end goes
in the final mail to everyone, ``HISTORY`` and ``SUMMARY`` (``results/ending.py``).

A Days of Decision III game has no supply centres to count and no draw votes: its GM ends it by the
same ruling, among its major powers not conquered (``conquered`` in the DoD III state), and each
player is mailed the end once (a player of several powers gets one copy, as DoD III's reports)."""

from __future__ import annotations

from dataclasses import dataclass

from app.db import queries
from app.db.models import Game
from app.db.statuses import RUNNING
from app.services.dod3 import store as dod3_store
from app.services.dod3.mailing import mail_all
from app.services.errors import DomainError
from app.services.kernel.access import book_of, require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.text_clean import clean_text
from app.services.kernel.uow import UnitOfWork
from app.services.results.ending import MAX_STATEMENT, Ending, end_game, ending_text, names_text, record_ending
from app.services.seats.votes import survivors

__all__ = ["EndChoices", "Ended", "declare_end", "end_choices", "plan_end"]


@dataclass(frozen=True)
class EndChoices:
    """What the GM may declare: the powers still in the game (id, name), in the variant's order."""

    game: str
    phase: str | None
    running: bool
    survivors: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Ended:
    game: str
    how: str  # draw | concession
    powers: tuple[str, ...]
    power_names: tuple[str, ...]
    mails: int


def _alive(judge: Judge, uow: UnitOfWork, game: Game) -> list[str]:
    """The powers still in the game, in the variant's order: the survivors' seats, or in a DoD III
    game the major powers its state does not mark conquered."""
    book = book_of(judge, game)
    if dod3_store.is_dod3(game):
        phase = queries.open_phase(uow.session, game.id)
        if phase is None:
            return []
        state = dod3_store.current_state(game, phase)
        alive = {item.power for item in state.powers if not item.conquered}
    else:
        alive = {s.power for s in survivors(game) if s.power}
    return [pid for pid in book.ids if pid in alive]


def end_choices(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game) -> EndChoices:
    require_gm(actor, game)
    book = book_of(judge, game)
    return EndChoices(game.name, game.phase, game.status in RUNNING,
                      tuple((pid, book.name(pid)) for pid in _alive(judge, uow, game)))


def plan_end(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, how: str, powers: str) -> tuple[str, ...]:
    """The powers of the ending the GM asks for, or the refusal (``declare_end``'s checks, before a
    statement is written)."""
    require_gm(actor, game)
    if game.status not in RUNNING:
        raise DomainError("not_running", f"game '{game.name}' is {game.status}: only a game in play can be ended "
                                         f"by a ruling")
    how = how.strip().lower()
    if how not in ("draw", "concession"):
        raise DomainError("bad_ending", "the game master declares a draw or a concession")
    book = book_of(judge, game)
    listed, unknown = book.parse_list(powers)
    if unknown:
        raise DomainError("unknown_powers", f"unknown powers: {', '.join(unknown)}")
    alive = _alive(judge, uow, game)
    out = [pid for pid in listed if pid not in alive]
    if out:
        raise DomainError("eliminated_powers",
                          f"{names_text([book.name(p) for p in out])} {'is' if len(out) == 1 else 'are'} out of the "
                          f"game: the survivors are {names_text([book.name(p) for p in alive])}")
    chosen = [pid for pid in alive if pid in listed] if listed else alive
    if how == "concession" and len(listed) != 1:
        raise DomainError("one_power", "a concession is to one power: say which (DECLARE CONCESSION France)")
    if how == "draw" and len(chosen) < 2:
        raise DomainError("draw_of_one", "a draw is among two powers or more; to one power, declare a concession")
    return tuple(chosen)


def declare_end(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, how: str, powers: str,
                statement: str = "") -> Ended:
    """End the running ``game`` by the GM's ruling: ``how`` is ``draw`` (among ``powers``, names or
    initials; none: every survivor) or ``concession`` (to the one power named); ``statement`` goes
    with it in the final mail, HISTORY and SUMMARY."""
    chosen = plan_end(judge, uow, actor, game, how, powers)
    book = book_of(judge, game)
    text = clean_text(statement).strip()
    if len(text) > MAX_STATEMENT:
        raise DomainError("statement_too_long", f"a statement is at most {MAX_STATEMENT} characters "
                                                f"(this one has {len(text)})")
    ending = Ending(how.strip().lower(), chosen, "gm", game.phase, judge.now(), text)
    if dod3_store.is_dod3(game):
        mails = _end_dod3(judge, uow, game, ending, actor)
    else:
        mails = end_game(judge, uow, game, ending, actor)
    return Ended(game.name, how, tuple(chosen), tuple(book.name(p) for p in chosen), mails)


def _end_dod3(judge: Judge, uow: UnitOfWork, game: Game, ending: Ending, actor: Actor) -> int:
    """``results.ending.end_game`` for a DoD III game: kept, audited, and mailed once to each player."""
    record_ending(game, ending)
    audit(uow, actor, game, "game_over", at=judge.now(), how=ending.how, powers=list(ending.powers), by=ending.by,
          phase=ending.phase, statement=ending.statement)
    text = ending_text(judge, game, ending)
    return mail_all(uow, judge, game, f"Diplomacy game {game.name} is over", lambda _reveal: (text, None), kind="end")
