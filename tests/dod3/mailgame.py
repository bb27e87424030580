"""A DoD III game by mail for the tests: the players, the GM, the set-up, and helpers to send
mail and read the state (the database and the memory outbox are the server tests')."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from app.db import queries
from app.db.models import Game, Phase
from app.db.session import make_engine, make_sessionmaker
from app.dod3.dice import derive_roll
from app.dod3.state import GameState
from app.dod3.turns import turn_key
from app.services import dod3 as service
from app.services.dod3 import store as dod3_store
from app.services.kernel.context import Judge
from app.settings import Settings
from tests.server.conftest import Clock, Harness
from tests.support.units import unit

GAME = "gazette"
GM = "gm@example.com"
PLAYERS = {  # rule 3.1, four players (4b): the worked victory example's players
    "Axis": ("axis@example.com", "pwaxis", ["GE", "JA", "IT"]),
    "France/Commonwealth": ("fc@example.com", "pwfc", ["FR", "CW"]),
    "USA/China": ("usc@example.com", "pwusc", ["US", "CH"]),
    "Soviet": ("soviet@example.com", "pwsoviet", ["RU"]),
}
PE = {"GE": 4, "IT": 3, "CW": 2, "FR": 2, "RU": 2, "JA": 1, "US": 1, "CH": 0}
COSTS = {"IPO 3": 2, "IPO 5": 1, "RU 2": 1, "FR 1": 1, "JA 1": 2, "CW 2": 1, "GE 1": 1, "IT 1": 1}
SIGNON = {  # sign on as one power of the player (any of them would do)
    "Axis": "SIGNON it@gazette pwaxis\n",
    "France/Commonwealth": "SIGNON Cgazette pwfc\n",
    "USA/China": "SIGNON us@gazette pwusc\n",
    "Soviet": "SIGNON Rgazette pwsoviet\n",
}
OWNER = {power: name for name, (_, _, powers) in PLAYERS.items() for power in powers}


@pytest.fixture
def harness(database_url: str) -> Iterator[Harness]:
    """The judge on a migrated database, SQLite then PostgreSQL (``database_url``: tests/server/conftest.py)."""
    clock = Clock()
    engine = make_engine(database_url)
    settings = Settings(database_url=database_url, judge_address="judge@judge.test", outage_minutes=10**7)
    judge = Judge(settings=settings, sessions=make_sessionmaker(engine), clock=clock)
    yield Harness(judge, clock)
    engine.dispose()


class Seeds:
    """The turn seeds the server draws (in order); fixed so the test knows the dice."""

    def __init__(self) -> None:
        self.queue: list[str] = []
        self.drawn: list[str] = []

    def __call__(self, token_bytes: Any = None) -> str:
        seed = self.queue.pop(0) if self.queue else f"{len(self.drawn) + 1:064x}"
        self.drawn.append(seed)
        return seed


@pytest.fixture
def seeds(monkeypatch: pytest.MonkeyPatch) -> Seeds:
    source = Seeds()
    monkeypatch.setattr(dod3_store, "generate_seed", source)
    return source


def send(h: Harness, player: str, body: str) -> str:
    email = PLAYERS[player][0]
    outcome = h.send(email, SIGNON[player] + body)
    assert outcome.status == "done", outcome.error
    return flat(h.last_reply(email))


def flat(text: str) -> str:
    """A reply with its wrapped notes joined up again."""
    return " ".join(text.split())


def gm(h: Harness, body: str) -> str:
    outcome = h.send(GM, f"SIGNON master@{GAME} masterpw\n" + body)
    assert outcome.status == "done", outcome.error
    return h.last_reply(GM)


def game_row(h: Harness) -> Game:
    with h.judge.sessions.begin() as db:
        game = queries.game_by_name(db, GAME)
        assert game is not None
        return game


def open_state(h: Harness) -> tuple[str, GameState]:
    with h.judge.sessions.begin() as db:
        game = queries.game_by_name(db, GAME)
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        return phase.code, service.current_state(game, phase)


def phase_row(h: Harness, code: str) -> Phase:
    with h.judge.sessions.begin() as db:
        game = queries.game_by_name(db, GAME)
        assert game is not None
        rows = [p for p in queries.phases_of(db, game.id) if p.code == code]
        assert rows, f"no processed step {code}"
        return rows[-1]


def state_after(h: Harness, code: str) -> dict[str, Any]:
    """The state stored after the processed step ``code``."""
    state = phase_row(h, code).state_after
    assert state is not None, f"step {code} stored no state"
    return state


def deadline_of(h: Harness) -> datetime:
    """The game's deadline (the game has one)."""
    deadline = game_row(h).deadline
    assert deadline is not None
    return deadline


def create(h: Harness, **options: Any) -> None:
    setup = {
        "players": {name: powers for name, (_, _, powers) in PLAYERS.items()},
        "powers": {p: {"pe": PE[p], "money": 10, "credit_limit": 5, "bid_points": 8} for p in PE},
        "option_costs": COSTS,
        "weather_chart": {"Jan/Feb": ["Snow"] * 3 + ["Frost"] * 4 + ["Mild"] * 3},  # no other column yet
        "options": options,
    }
    with unit(h.judge) as uow:
        service.create_game(uow, h.judge, GAME, GM, "masterpw", setup,
                            {name: (email, pw) for name, (email, pw, _) in PLAYERS.items()})


def play_first_turn_passing(h: Harness) -> None:
    """Jan/Feb 1936: no bids; each power in the initial order passes its one option."""
    for power in ("GE", "IT", "CW", "FR", "RU", "JA", "US", "CH"):
        code, state = open_state(h)
        assert state.political is not None and state.political.current_power == power, code
        send(h, OWNER[power], f"PASS {power}")


def find_seed(game: str, turn: int, purposes: list[str], want: list[Any]) -> str:
    """A seed whose rolls for ``purposes`` (counters 0, 1, ...) satisfy ``want`` (predicates)."""
    for n in range(1, 100000):
        seed = f"{n:064x}"
        dice = [derive_roll(seed, game, turn_key(turn), purpose, i)[0] for i, purpose in enumerate(purposes)]
        if all(check(d) for check, d in zip(want, dice)):
            return seed
    raise AssertionError("no seed found")
