"""One access check for "the GM of this game" (kernel/access.py ``require_gm``) and one audit
helper (kernel/audit.py ``audit``): every use case refuses a stranger to the game alike, and every
audit row is written the same way."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from app.db.models import AuditEntry, Game
from app.services.errors import DomainError
from app.services.games import gm
from app.services.games.admin import create_game_direct
from app.services.games.gm_admin import create_linked_game, mail_sent_to, resend_mail
from app.services.kernel.access import gm_game, require_gm
from app.services.kernel.actor import Actor, Role
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.readmodels.corrections import audit_log
from app.services.readmodels.dashboard import gm_game_named, list_games
from app.services.readmodels.maps import gm_map
from app.services.turns import control
from tests.support.fake_uow import FakeUnitOfWork, fake_judge

Call = Callable[[Judge, UnitOfWork, Actor, Game], Any]

GM_ONLY: list[tuple[str, Call]] = [  # the checks that were several, with two codes and four wordings
    ("gm_game (the mail's PAUSE: the actor's own game)", lambda j, uow, a, g: gm.pause(j, uow, a)),
    ("turn control", lambda j, uow, a, g: control.preview_turn(j, uow, a, g)),
    ("resend a mail", lambda j, uow, a, g: resend_mail(j, uow, a, g, 1)),
    ("the audit log", lambda j, uow, a, g: audit_log(uow, a, g)),
    ("the dashboard's game", lambda j, uow, a, g: gm_game_named(uow, a, g.name)),
    ("the GM's map", lambda j, uow, a, g: gm_map(j, uow, a, g.name)),
]


@pytest.fixture
def two_games() -> tuple[Judge, int, int]:
    judge = fake_judge()
    with FakeUnitOfWork(judge) as unit:
        ids = [create_game_direct(judge, unit, name, f"gm-{name}@example.com", "masterpw",
                                  start=False).created.game_id for name in ("alpha", "beta")]
        unit.commit()
    return judge, ids[0], ids[1]


# A mail acts on the game it signed on to, so only its player, not another game's GM, meets gm_game.
CASES = [(who, what, call) for who in ("player", "other_gm") for what, call in GM_ONLY
         if not (who == "other_gm" and what.startswith("gm_game"))]


@pytest.mark.parametrize(("who", "what", "call"), CASES, ids=[f"{who}-{what}" for who, what, _ in CASES])
def test_every_gm_only_use_case_refuses_alike(two_games: tuple[Judge, int, int], who: str, what: str,
                                              call: Call) -> None:
    judge, alpha, beta = two_games
    actor = (Actor("france@example.com", Role.PLAYER, alpha, "FRANCE") if who == "player"
             else Actor("gm-beta@example.com", Role.GM, beta))
    with FakeUnitOfWork(judge) as unit, pytest.raises(DomainError) as refused:
        call(judge, unit, actor, unit.session.get_one(Game, alpha))
    assert (refused.value.code, refused.value.message) == ("not_gm", "only the game master of 'alpha' may do that")


def test_the_gm_and_the_keeper_pass(two_games: tuple[Judge, int, int]) -> None:
    judge, alpha, _beta = two_games
    with FakeUnitOfWork(judge) as unit:
        game = unit.session.get_one(Game, alpha)
        require_gm(Actor("gm-alpha@example.com", Role.GM, alpha), game)
        require_gm(Actor("keeper@example.com", Role.KEEPER), game)
        assert gm_game(unit, Actor("gm-alpha@example.com", Role.GM, alpha)) is game


def test_no_game_signed_on_to_is_its_own_refusal(two_games: tuple[Judge, int, int]) -> None:
    judge, _alpha, _beta = two_games
    with FakeUnitOfWork(judge) as unit, pytest.raises(DomainError) as refused:
        gm.pause(judge, unit, Actor("gm-alpha@example.com"))
    assert refused.value.code == "not_signed_on"


@pytest.mark.parametrize("call", [
    lambda j, uow, a: create_linked_game(j, uow, a, 1, "gamma", "pw", "standard", "white", {}),
    lambda j, uow, a: mail_sent_to(j, uow, a, "x@example.com", None),
    lambda j, uow, a: list_games(j, uow, a),
])
def test_what_only_a_gm_may_do_before_a_game_refuses_alike(call: Callable[[Judge, UnitOfWork, Actor], Any]) -> None:
    judge = fake_judge()
    with FakeUnitOfWork(judge) as unit, pytest.raises(DomainError) as refused:
        call(judge, unit, Actor("france@example.com", Role.PLAYER))
    assert (refused.value.code, refused.value.message) == ("not_gm", "only a game master may do that")


def test_the_audit_helper_takes_an_actor_or_an_address_cut_to_the_column(two_games: tuple[Judge, int, int]) -> None:
    judge, alpha, _beta = two_games
    at = datetime(2030, 5, 1, 12, tzinfo=UTC)
    with FakeUnitOfWork(judge) as unit:
        game = unit.session.get_one(Game, alpha)
        audit(unit, Actor("gm-alpha@example.com", Role.GM, alpha), game, "pause", why="holiday")
        audit(unit, "x" * 400 + "@example.com", None, "answer_stranger", at=at)
        unit.commit()
    with FakeUnitOfWork(judge) as unit:
        rows = unit.session.scalars(select(AuditEntry).order_by(AuditEntry.id)).all()
        assert [(r.game_id, r.actor, r.action, r.detail) for r in rows[-2:]] == [
            (alpha, "gm-alpha@example.com", "pause", {"why": "holiday"}),
            (None, "x" * 320, "answer_stranger", {})]
        assert rows[-1].created_at == at
