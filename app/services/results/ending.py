"""How a game ended, kept with it (issue 28.8, 28.20): a solo on the board, a draw or a concession the
players voted for, or the game master's ruling, with the GM's statement.

The record lives in ``game.settings["ending"]`` (a key the judge keeps for the game, beside the GM's
options: ``ruleset.options.STATE_KEYS``), so a rollback that reopens the game drops it
(``clear_ending``) and a ``ROLLBACK FULL`` restores the settings of its phase without it.  The end of
the game is mailed to everyone in the results' own words (``templates/mail/common/ending.txt.j2``:
DPjudge's "Game 'x' has been declared a draw between A, B, and C."), with the results' header block
in the judge layout (map tools read it), and the same text closes ``HISTORY`` and ``SUMMARY``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.db.models import Game
from app.db.statuses import GameStatus
from app.services.kernel.access import book_of
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_game
from app.services.ruleset.options import options_of

__all__ = ["HOWS", "Ending", "clear_ending", "end_game", "ending_of", "ending_text", "names_text", "record_ending"]

ENDING_KEY = "ending"
HOWS = ("solo", "draw", "concession")
BY = ("board", "votes", "gm")  # a solo on the board, the players' votes, the game master's ruling
MAX_STATEMENT = 5000  # characters of the GM's statement


@dataclass(frozen=True)
class Ending:
    how: str  # HOWS
    powers: tuple[str, ...]  # power ids: the winner, the powers of the draw, the power conceded to
    by: str  # BY
    phase: str | None  # the last phase played (processed, or open when the game ended between turns)
    at: datetime
    statement: str = ""  # the game master's, with a ruling

    def as_json(self) -> dict[str, Any]:
        return {"how": self.how, "powers": list(self.powers), "by": self.by, "phase": self.phase,
                "at": self.at.isoformat(), "statement": self.statement}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ending:
        return cls(how=str(data["how"]), powers=tuple(str(p) for p in data.get("powers") or ()),
                   by=str(data.get("by") or "board"), phase=data.get("phase"),
                   at=datetime.fromisoformat(str(data["at"])), statement=str(data.get("statement") or ""))


def names_text(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B, and C`` (DPjudge's list of the drawers)."""
    if len(names) > 2:
        return ", ".join(names[:-1]) + ", and " + names[-1]
    return " and ".join(names)


def ending_of(game: Game) -> Ending | None:
    data = (game.settings or {}).get(ENDING_KEY)
    return Ending.from_json(data) if isinstance(data, Mapping) else None


def record_ending(game: Game, ending: Ending) -> None:
    """Keep how the game ended; the game is over."""
    game.settings = {**(game.settings or {}), ENDING_KEY: ending.as_json()}
    game.status, game.deadline, game.grace_until = GameStatus.FINISHED, None, None


def clear_ending(game: Game) -> None:
    """The game is reopened (a rollback, a correction): it has not ended."""
    if ENDING_KEY in (game.settings or {}):
        game.settings = {key: value for key, value in game.settings.items() if key != ENDING_KEY}


def ending_text(judge: Judge, game: Game, ending: Ending, *, header: bool = True) -> str:
    """The end of the game in the results' words: the sentence, the GM's statement, and (``header``,
    in the judge layout) the results' ``::`` block before them."""
    book = book_of(judge, game)
    names = [book.name(p) for p in ending.powers]
    zone = options_of(game).timezone
    return judge.templates.render(
        "mail/common/ending.txt.j2", game=game.name, variant=game.variant, judge_id=judge.settings.judge_id,
        ending=ending, names=names_text(names), phase_code=ending.phase or "-",
        header=header and options_of(game).layout == "judge", deadline_text=format_deadline(ending.at, zone),
        paragraphs=paragraphs(ending.statement))


def paragraphs(text: str) -> list[str]:
    """The statement's paragraphs (blank lines apart), each one line to be filled to the mail's width."""
    return [" ".join(block.split()) for block in re.split(r"\n\s*\n", text) if block.strip()]


def end_game(judge: Judge, uow: UnitOfWork, game: Game, ending: Ending, who: Actor | str) -> int:
    """End ``game`` as ``ending`` says: kept with the game, audited, mailed to everyone (the number of
    mails)."""
    record_ending(game, ending)
    audit(uow, who, game, "game_over", at=judge.now(), how=ending.how, powers=list(ending.powers), by=ending.by,
          phase=ending.phase, statement=ending.statement)
    return mail_game(uow, judge, game, f"Diplomacy game {game.name} is over", ending_text(judge, game, ending),
                     kind="end")
