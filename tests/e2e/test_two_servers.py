"""Two server processes on one PostgreSQL database: every turn is processed exactly once."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import func, select

from app.db import queries
from app.db.models import OutboundMessage, Phase
from tests.e2e.conftest import ServerProcess, create_started_game, local_judge, make_due, server_env, wait_until

GAMES = 6
ROUNDS = 3


def test_two_servers_process_each_turn_once(pg_url: str, tmp_path: Path,
                                            server_factory: Callable[..., ServerProcess]) -> None:
    judge = local_judge(pg_url)
    names = [f"t{i}{secrets.token_hex(2)}" for i in range(GAMES)]
    for name in names:
        create_started_game(judge, name)
    env = server_env(pg_url, "judge@judge.test", mode="embedded", tmp=tmp_path, JUDGE_TICK_SECONDS="0.1")
    first = server_factory(env, name="one").start()
    second = server_factory(env, name="two").start()
    for round_number in range(1, ROUNDS + 1):
        for name in names:
            make_due(judge, name)

        def all_processed(expected: int = round_number) -> bool:
            with judge.sessions.begin() as db:
                return db.scalar(select(func.count()).select_from(Phase).where(Phase.status == "processed")) \
                    >= expected * GAMES

        wait_until(all_processed, timeout=60, what=f"round {round_number}")
    wait_until(lambda: _unsent(judge) == 0, timeout=60, what="the outbox to drain")
    assert first.process is not None and first.process.poll() is None
    assert second.process is not None and second.process.poll() is None
    with judge.sessions.begin() as db:
        for name in names:
            game = queries.game_by_name(db, name)
            assert game is not None
            phases = list(db.scalars(select(Phase).where(Phase.game_id == game.id).order_by(Phase.seq)))
            assert [p.seq for p in phases] == list(range(1, ROUNDS + 2))
            assert [p.status for p in phases] == ["processed"] * ROUNDS + ["open"]
            results = db.scalars(select(OutboundMessage).where(OutboundMessage.game_id == game.id,
                                                                OutboundMessage.kind == "results")).all()
            assert len(results) == 8 * ROUNDS
            assert len({(r.subject, r.recipients[0]) for r in results}) == 8 * ROUNDS


def _unsent(judge) -> int:  # type: ignore[no-untyped-def]
    with judge.sessions.begin() as db:
        return int(db.scalar(select(func.count()).select_from(OutboundMessage)
                             .where(OutboundMessage.status != "sent")) or 0)
