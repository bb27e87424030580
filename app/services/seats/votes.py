"""Draw votes and concessions (issue 22.4, 28.12), after njudge's ``data/draws`` and DPjudge.

- ``SET DRAW`` alone is a vote for a draw including all survivors (njudge's DIAS): whoever survives
  when it passes, eliminations included.  It is stored as ``*``, never as the list of the day.
- ``SET DRAW powers`` is a vote for that draw (listed, ``A,B,C``).  When a power it names is
  eliminated, the vote lapses: it is withdrawn and its voter told (``check_standing_votes``).
- A draw passes when every surviving power with a player at the board (not in civil disorder, not
  abandoned or vacant) votes, and all the votes name the same powers (a DIAS vote names the
  survivors).  A concession passes when every other such power concedes to one power.
- The votes are checked at each vote and again after each processed phase (an elimination, or a
  power gone to civil disorder, can make the rest unanimous).
- How long a vote stands is the game's ``draw_expires`` option (``SET DRAW EXPIRES PHASE|NEVER``):
  until withdrawn (the default), or for one phase as on njudge ("Any draw vote ... is good for one
  phase only.  All draw votes are cleared at the end of a phase."): then votes and concessions are
  cleared once the phase they were cast in is processed and checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.db.models import Game, Player
from app.db.statuses import GameStatus, SeatRole, SeatStatus
from app.services.errors import DomainError
from app.services.kernel.access import actor_game, book_of, power_seat
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_seat
from app.services.results.ending import Ending, end_game, names_text
from app.services.ruleset.options import DRAW_EXPIRIES, options_of

__all__ = ["DIAS", "Concession", "DrawVote", "LapsedVote", "check_standing_votes", "draw_of", "set_concede",
           "draw_expiry_choice", "draw_expiry_words", "set_draw", "survivors", "voters"]

DIAS = "*"  # a draw including all survivors, whoever they are when it passes


@dataclass(frozen=True)
class DrawVote:
    powers: tuple[str, ...]  # the draw voted for (the survivors now, for DIAS); empty: withdrawn
    power_names: tuple[str, ...]
    game_over: bool = False
    dias: bool = False  # a vote for whoever survives (SET DRAW alone)
    one_phase: bool = False  # the vote is good for this phase only (SET DRAW EXPIRES PHASE)


@dataclass(frozen=True)
class Concession:
    power: str | None  # None: the concession was withdrawn
    power_name: str | None
    game_over: bool = False
    one_phase: bool = False


@dataclass(frozen=True)
class LapsedVote:
    power: str  # the voter
    draw: tuple[str, ...]  # the draw it voted for
    gone: tuple[str, ...]  # the powers of it eliminated


def survivors(game: Game) -> list[Player]:
    """The seats of the powers still in the game (civil disorder and vacant ones too)."""
    return [s for s in game.players if s.role == SeatRole.PLAYER and s.power and s.status != SeatStatus.ELIMINATED]


def voters(game: Game) -> list[Player]:
    """The survivors with a player at the board: every one must vote for a draw to pass."""
    return [s for s in survivors(game) if s.status in (SeatStatus.ACTIVE, SeatStatus.ABSENT)]


def draw_of(vote: str | None, alive: Sequence[str]) -> frozenset[str] | None:
    """The powers a stored vote is for (``*``: the survivors ``alive``); None: no vote."""
    if vote is None:
        return None
    if vote == DIAS:
        return frozenset(alive)
    return frozenset(p for p in vote.split(",") if p)


def _alive(game: Game) -> list[str]:
    return sorted(s.power for s in survivors(game) if s.power)


def set_draw(judge: Judge, uow: UnitOfWork, actor: Actor, powers: str | None) -> DrawVote:
    """Vote for a draw among ``powers`` (a list of power names; empty: all survivors, DIAS); None
    withdraws the vote."""
    seat = power_seat(uow, actor)
    game = actor_game(uow, actor)
    one_phase = options_of(game).draw_expires == "phase"
    if powers is None:
        seat.draw = None
        return DrawVote((), (), one_phase=one_phase)
    book = book_of(judge, game)
    listed, unknown = book.parse_list(powers)
    if unknown:
        raise DomainError("unknown_powers", f"unknown powers: {', '.join(unknown)}")
    alive = _alive(game)
    out = sorted(set(listed) - set(alive))
    if out:
        raise DomainError("eliminated_powers",
                          f"{names_text([book.name(p) for p in out])} {'is' if len(out) == 1 else 'are'} out of "
                          f"the game: a draw is among the survivors ({', '.join(book.name(p) for p in alive)})")
    seat.draw = ",".join(sorted(set(listed))) if listed else DIAS
    wanted = sorted(listed) if listed else alive
    over = _declare_agreed_draw(judge, uow, game, actor.address)
    return DrawVote(tuple(wanted), tuple(book.name(p) for p in wanted), game_over=over, dias=not listed,
                    one_phase=one_phase)


def _declare_agreed_draw(judge: Judge, uow: UnitOfWork, game: Game, by: str) -> bool:
    """Every surviving power with a player at the board voted, and for the same draw: it passes."""
    seats = voters(game)
    alive = _alive(game)
    draws = {draw_of(s.draw, alive) for s in seats}
    if not seats or len(draws) != 1 or None in draws:
        return False
    wanted = sorted(draws.pop() or ())
    if not wanted:
        return False
    how = "draw" if len(wanted) > 1 else "concession"  # njudge: a one-power draw is a concession to it
    end_game(judge, uow, game, Ending(how, tuple(wanted), "votes", game.phase, judge.now()), by)
    return True


def set_concede(judge: Judge, uow: UnitOfWork, actor: Actor, power: str | None) -> Concession:
    """Concede the game to ``power`` (a power's name); None withdraws the concession."""
    seat = power_seat(uow, actor)
    game = actor_game(uow, actor)
    one_phase = options_of(game).draw_expires == "phase"
    book = book_of(judge, game)
    if power is None:
        seat.concede = None
        return Concession(None, None, one_phase=one_phase)
    pid = book.find(power)
    if pid is None:
        raise DomainError("unknown_power", f"no power called '{power}'")
    if pid not in _alive(game):
        raise DomainError("eliminated_power", f"{book.name(pid)} is out of the game")
    seat.concede = pid
    over = _declare_agreed_concession(judge, uow, game, actor.address)
    return Concession(pid, book.name(pid), game_over=over, one_phase=one_phase)


def _declare_agreed_concession(judge: Judge, uow: UnitOfWork, game: Game, by: str) -> bool:
    """Every other surviving power with a player at the board concedes to one power: it wins."""
    seats = voters(game)
    conceded = {s.concede for s in seats if s.concede}
    if len(conceded) != 1:
        return False
    pid = conceded.pop()
    others = [s for s in seats if s.power != pid]
    if pid not in _alive(game) or not others or any(s.concede != pid for s in others):
        return False
    end_game(judge, uow, game, Ending("concession", (pid,), "votes", game.phase, judge.now()), by)
    return True


def check_standing_votes(judge: Judge, uow: UnitOfWork, game: Game, processed: str) -> tuple[LapsedVote, ...]:
    """After the phase ``processed``: a listed vote naming a power eliminated lapses (its voter is told), a
    concession to one too; then the votes that stand may end the game (an elimination, or a power
    gone to civil disorder, can leave the rest unanimous); then, under ``SET DRAW EXPIRES PHASE``,
    the votes of the phase are cleared."""
    if game.status != GameStatus.ACTIVE:
        return ()
    alive = set(_alive(game))
    book = book_of(judge, game)
    lapsed: list[LapsedVote] = []
    for seat in survivors(game):
        draw = draw_of(seat.draw, sorted(alive))
        if seat.draw not in (None, DIAS) and draw is not None and not draw <= alive:
            gone = tuple(sorted(draw - alive))
            lapsed.append(LapsedVote(seat.power or "", tuple(sorted(draw)), gone))
            seat.draw = None
            mail_seat(uow, judge, seat, f"Diplomacy draw vote lapsed {game.name}",
                      f"Your vote for a draw between {names_text([book.name(p) for p in sorted(draw)])} in game "
                      f"'{game.name}'\nhas lapsed: {names_text([book.name(p) for p in gone])} "
                      f"{'was' if len(gone) == 1 else 'were'} eliminated in {processed}.\n"
                      f"Vote again if you wish: SET DRAW alone is a vote for a draw including all survivors,\n"
                      f"SET DRAW <powers> for a draw between those powers.\n")
        if seat.concede and seat.concede not in alive:
            seat.concede = None
    if _declare_agreed_draw(judge, uow, game, "judge") or _declare_agreed_concession(judge, uow, game, "judge"):
        return tuple(lapsed)
    if options_of(game).draw_expires == "phase":
        for seat in survivors(game):
            seat.draw = seat.concede = None
    return tuple(lapsed)


def draw_expiry_choice(value: str) -> str:
    """``SET DRAW EXPIRES PHASE|NEVER``'s word as the game's ``draw_expires`` option (the settings'
    writer, ``gm.set_option``, stores it and tells the players with the game's other settings)."""
    choice = value.strip().lower()
    if choice in ("phase", "turn", "one phase"):
        choice = "phase"
    elif choice in ("never", "no", "off", "withdrawn"):
        choice = "never"
    if choice not in DRAW_EXPIRIES:
        raise DomainError("bad_option", f"a draw vote stands for one phase (phase) or until withdrawn (never), "
                                        f"not '{value.strip()}'", option="draw_expires")
    return choice


def draw_expiry_words(choice: str) -> str:
    """How long a vote stands, as the players read it."""
    return "good for one phase" if choice == "phase" else "until withdrawn"
