"""Small parts of the web door and its use cases, as tables: redirects after sign-in, the chart,
GM accounts, sessions and the import rules of the door."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from sqlalchemy import select

from app.db.models import Game
from app.services.errors import DomainError
from app.services.games.gm_accounts import gm_actor, principal_for_session, set_gm_password, sign_in
from app.services.kernel.actor import Actor, Role
from app.services.readmodels.dashboard import CentreHistory, OrderOutcome, list_games, show_game
from app.web.charts import centre_chart
from app.web.deps import safe_next
from app.web.reasons import review_orders
from tests.support.units import unit
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, OTHER_GM, played

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("given", "expected"), [
    ("/games/alpha", "/games/alpha"),
    ("/games/alpha?x=1#h", "/games/alpha?x=1#h"),
    ("/", "/"),
    (None, "/"),
    ("", "/"),
    ("games/alpha", "/"),
    ("//evil.example/", "/"),
    ("/\\evil.example", "/"),
    ("/\t/evil.example", "/"),
    ("/\n/evil.example", "/"),
    ("https://evil.example/", "/"),
    ("javascript:alert(1)", "/"),
])
def test_safe_next(given: str | None, expected: str) -> None:
    assert safe_next(given) == expected


def test_chart_geometry() -> None:
    assert centre_chart(CentreHistory((), ())) is None
    assert centre_chart(CentreHistory(("start",), (("France", (3,)),))) is None  # one point: no line
    chart = centre_chart(CentreHistory(("start", "1901", "1902"),
                                       (("France", (3, 5, 8)), ("Italy", (3, 3, 2)))))
    assert chart is not None
    france, italy = chart.lines
    xs = [float(p.split(",")[0]) for p in france.points.split()]
    ys = [float(p.split(",")[1]) for p in france.points.split()]
    assert xs == sorted(xs) and xs[0] == chart.left and xs[-1] == chart.right
    assert ys[0] > ys[1] > ys[2] == chart.top  # more centres, higher up; the most at the top
    assert france.colour != italy.colour and (france.last, italy.last) == (8, 2)
    assert [label for _x, label in chart.x_ticks] == ["start", "1901", "1902"]


@pytest.fixture
def judge(sqlite_played_template: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    harness = played(sqlite_played_template, tmp_path / "judge.sqlite3")
    return harness


def test_keeper_account_needs_the_keeper(judge) -> None:  # type: ignore[no-untyped-def]
    j = judge.judge
    with unit(j) as uow:
        with pytest.raises(DomainError) as refused:
            set_gm_password(j, uow, Actor(GM, Role.GM, 1), KEEPER, "long-enough")
        assert refused.value.code == "not_keeper"
        with pytest.raises(DomainError) as short:
            set_gm_password(j, uow, Actor("cli", Role.KEEPER), KEEPER, "short")
        assert short.value.code == "bad_account"
        assert set_gm_password(j, uow, Actor("cli", Role.KEEPER), KEEPER, "long-enough") is True
        assert set_gm_password(j, uow, Actor("cli", Role.KEEPER), KEEPER, "longer-still") is False


def test_sessions_expire_and_a_new_password_ends_them(judge) -> None:  # type: ignore[no-untyped-def]
    j = judge.judge
    with unit(j) as uow:
        signed = sign_in(j, uow, Actor(GM), GM_PASSWORD, client="t", keeper_address=KEEPER)
        assert not signed.created_account and not signed.principal.proven  # the keeper made it
    with unit(j) as uow:
        assert principal_for_session(j, uow, signed.session_token, keeper_address=KEEPER) is not None
        assert principal_for_session(j, uow, "not-a-token", keeper_address=KEEPER) is None
    judge.clock.advance(days=8)
    with unit(j) as uow:
        assert principal_for_session(j, uow, signed.session_token, keeper_address=KEEPER) is None
    judge.clock.advance(days=-8)
    with unit(j) as uow:
        again = sign_in(j, uow, Actor(GM), GM_PASSWORD, client="t", keeper_address=KEEPER)
        assert not again.created_account
        set_gm_password(j, uow, Actor("cli", Role.KEEPER), GM, "a-new-password")
        assert principal_for_session(j, uow, again.session_token, keeper_address=KEEPER) is None


def test_a_game_handed_to_another_master_leaves_the_old_gm(judge) -> None:  # type: ignore[no-untyped-def]
    j = judge.judge
    with unit(j) as uow:
        db = uow.session
        signed = sign_in(j, uow, Actor(GM), GM_PASSWORD, client="t", keeper_address=KEEPER)
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None
        actor = gm_actor(uow, signed.principal, game)
        assert actor.role is Role.GM and actor.game_id == game.id
        assert [g.name for g in list_games(j, uow, actor)] == ["alpha"]
        game.master_email = OTHER_GM
        db.flush()
        with pytest.raises(DomainError):
            gm_actor(uow, signed.principal, game)
        assert list_games(j, uow, actor) == ()


@pytest.mark.parametrize("role", [Role.ANYONE, Role.PLAYER, Role.OBSERVER])
def test_dashboard_use_cases_refuse_non_gms(judge, role: Role) -> None:  # type: ignore[no-untyped-def]
    j = judge.judge
    with unit(j) as uow:
        db = uow.session
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None
        for call in (lambda: list_games(j, uow, Actor(GM, role, game.id)),
                     lambda: show_game(j, uow, Actor(GM, role, game.id), "alpha")):
            with pytest.raises(DomainError) as refused:
                call()
            assert refused.value.code == "not_gm"


def test_a_gm_actor_of_one_game_cannot_read_another(judge) -> None:  # type: ignore[no-untyped-def]
    j = judge.judge
    with unit(j) as uow:
        db = uow.session
        beta = db.scalar(select(Game).where(Game.name == "beta"))
        assert beta is not None
        with pytest.raises(DomainError):
            show_game(j, uow, Actor(GM, Role.GM, beta.id + 100), "beta")
        assert show_game(j, uow, Actor(OTHER_GM, Role.GM, beta.id), "beta").summary.status == "forming"


def test_keeper_sees_every_game(judge) -> None:  # type: ignore[no-untyped-def]
    j = judge.judge
    with unit(j) as uow:
        names = [g.name for g in list_games(j, uow, Actor(KEEPER, Role.KEEPER))]
    assert names == ["alpha", "beta"]


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("path", sorted([*(ROOT / "app" / "web").glob("*.py"),
                                         ROOT / "app/services/readmodels/dashboard.py", ROOT / "app/services/games/gm_accounts.py",
                                         ROOT / "app/db/models_web.py"]), ids=lambda p: p.name)
def test_the_web_door_never_imports_the_mail_door(path: Path) -> None:
    imported = _imports(path)
    assert not {m for m in imported if m == "app.mail" or m.startswith("app.mail.")}, path
    if "services" in path.parts or "db" in path.parts:
        assert not {m for m in imported if m.startswith(("app.web", "app.scheduler"))}, path



# -- the adjudication review in English ---------------------------------------------------------



def _o(power: str, order: str, result: str, outcome: dict[str, object] | None, reason: str = "ok") -> OrderOutcome:
    return OrderOutcome(power, order, result, reason, None, False, outcome)


REVIEW_CASES = [
    ({"kind": "bounced", "by": "mun", "attack": 2, "opposing": 2, "against": "head_to_head"},
     ["Bounced: A PAR (2) vs the unit in MUN (2), the unit moving the other way (head to head). "
      "Equal strength: neither gets in."]),
    ({"kind": "moved", "to": "bel", "by_convoy": True, "dislodged": "bel"},
     ["Moved to BEL by convoy, dislodging the unit in BEL."]),
    ({"kind": "dislodged", "by": "bur", "attack": 3, "hold": 1, "order": "hold"},
     ["Dislodged by the unit in BUR (3) against hold strength 1."]),
    ({"kind": "support_cut", "by": ["gas", "mar"]}, ["Support cut by an attack from the unit in GAS, the unit in MAR."]),
    ({"kind": "support_void", "supported": "par", "target": "bur"},
     ["Support void: the unit in PAR was not ordered to BUR."]),
    ({"kind": "convoy_disrupted", "fleets": ["nth"], "by": ["hol"]},
     ["Failed: the convoy was disrupted; fleet(s) NTH dislodged by HOL."]),
    ({"kind": "built", "unit": "a par"}, ["Built A PAR."]),
    ({"kind": "too_many", "owed": 2, "builds": True}, ["Failed: more orders than the 2 owed."]),
    (None, []),
]


@pytest.mark.parametrize("outcome, facts", REVIEW_CASES)
def test_each_outcome_reads_in_english(outcome: dict[str, object] | None, facts: list[str]) -> None:
    (review,) = review_orders([_o("FRANCE", "A PAR - BUR", "fails", outcome)])
    assert list(review.facts) == facts


def test_a_move_lists_the_supports_and_convoys_given_to_it() -> None:
    orders = [
        _o("FRANCE", "A PAR - BUR", "succeeds", {"kind": "moved", "to": "bur"}),
        _o("FRANCE", "A MAR S A PAR - BUR", "succeeds", {"kind": "support_given"}),
        _o("GERMANY", "A MUN S A PAR - BUR", "fails", {"kind": "support_cut", "by": ["sil"]}, "cut"),
        _o("FRANCE", "A GAS S A PAR", "fails", {"kind": "support_void", "supported": "par"}, "void"),
    ]
    move, *_rest, hold_support = review_orders(orders, str.title)
    assert move.power == "France"
    assert move.helpers == ("Support from A MAR (France): succeeds", "Support from A MUN (Germany): fails, support cut")
    assert hold_support.helpers == ()


def test_a_reason_code_reads_as_words() -> None:
    """Issue 21 item 11: the phase page said ``(civil_disorder)``."""
    (review,) = review_orders([_o("ENGLAND", "REMOVE F NTH", "succeeds",
                                  {"kind": "civil_disorder_removal", "unit": "F NTH"}, "civil_disorder")])
    assert review.reason_text == "civil disorder"
