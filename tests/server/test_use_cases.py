"""The use cases without the mail door: an actor and typed arguments in, a value or a DomainError out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import AuditEntry, Game
from app.services.bootstrap import transaction
from app.services.errors import DomainError
from app.services.games import gm, identity, lobby, press
from app.services.games.admin import SeatSpec, create_game_direct
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.readmodels import listing
from app.services.seats import player, votes
from tests.server.conftest import POWERS, Harness
from tests.support.units import unit

GM = "gm@example.com"


def _game(db: Session, name: str = "alpha") -> Game:
    game = queries.game_by_name(db, name)
    assert game is not None
    return game


def _gm(db: Session) -> Actor:
    return Actor(GM, Role.GM, _game(db).id)


def _power(db: Session, power: str) -> Actor:
    seat = queries.seat_for_power(db, _game(db).id, power)
    assert seat is not None
    return Actor(seat.email, Role.PLAYER, seat.game_id, power, seat.id)


@pytest.fixture
def playing(harness: Harness) -> Harness:
    """A started game 'alpha' made with the use cases only (``judge game create``)."""
    seats = [SeatSpec(f"{p.lower()}@example.com", f"pw{p.lower()}", p) for p in POWERS]
    with transaction(harness.judge) as unit:
        set_up = create_game_direct(harness.judge, unit, "alpha", GM, "masterpw", seats=seats)
    assert set_up.started is not None and set_up.started.phase == "S1901M"
    assert [j.players for j in set_up.joined] == list(range(1, 8))
    return harness


def test_create_join_start_return_values_and_audit(harness: Harness) -> None:
    judge = harness.judge
    with unit(judge) as uow:
        db = uow.session
        created = lobby.create_game(judge, uow, Actor(GM), "beta", "secret", settings={"auto_start": False})
        assert (created.name, created.variant) == ("beta", "standard")
        joined = [lobby.join_game(judge, uow, Actor(f"p{i}@example.com"), "beta", "pw", power=power)
                  for i, power in enumerate(POWERS)]
        assert joined[-1].started is None and joined[-1].players == joined[-1].seats == 7
        started = lobby.start_game(judge, uow, Actor(GM, Role.GM, created.game_id))
        assert (started.name, started.phase) == ("beta", "S1901M")
        actions = [a.action for a in db.query(AuditEntry).filter(AuditEntry.game_id == created.game_id)]
        assert actions == ["create", "start"]
        assert {s.power for s in _game(db, "beta").players} == set(POWERS)


REFUSALS: list[tuple[str, Callable[[Judge, UnitOfWork], Any], str]] = [
    ("bad name", lambda j, uow: lobby.create_game(j, uow, Actor(GM), "9x", "pw"), "bad_name"),
    ("game exists", lambda j, uow: lobby.create_game(j, uow, Actor(GM), "alpha", "pw"), "game_exists"),
    ("unknown variant", lambda j, uow: lobby.create_game(j, uow, Actor(GM), "gamma", "pw", "nope"), "unknown_variant"),
    ("no such game", lambda j, uow: lobby.join_game(j, uow, Actor("x@example.com"), "nope", "pw"), "no_game"),
    ("join a started game", lambda j, uow: lobby.join_game(j, uow, Actor("x@example.com"), "alpha", "pw"),
     "not_forming"),
    ("start as a player", lambda j, uow: lobby.start_game(j, uow, _power(uow.session, "FRANCE")), "not_gm"),
    ("start twice", lambda j, uow: lobby.start_game(j, uow, _gm(uow.session)), "already_started"),
    ("take over a played power", lambda j, uow: lobby.takeover(j, uow, Actor("x@example.com"), "alpha", "france", "pw"),
     "not_vacant"),
    ("take over the master", lambda j, uow: lobby.takeover(j, uow, Actor("x@example.com"), "alpha", "master", "pw"),
     "master_not_vacant"),
    ("wrong power password", lambda j, uow: identity.sign_on(j, uow, Actor("x@example.com"),
                                                            identity.SignOnTarget("alpha", letter="F"), "bad"),
     "wrong_password"),
    ("wrong master password", lambda j, uow: identity.sign_on(j, uow, Actor("x@example.com"),
                                                             identity.SignOnTarget("alpha", master=True), "bad"),
     "wrong_password"),
    ("unknown letter", lambda j, uow: identity.sign_on(j, uow, Actor("x@example.com"),
                                                      identity.SignOnTarget("alpha", letter="Q"), "pw"),
     "unknown_letter"),
    ("become as a player", lambda j, uow: identity.become(j, uow, _power(uow.session, "FRANCE"), "england"), "not_gm"),
    ("become nobody", lambda j, uow: identity.become(j, uow, _gm(uow.session), "atlantis"), "unknown_power"),
    ("wait as the GM", lambda j, uow: player.set_wait(j, uow, _gm(uow.session), True), "not_a_player"),
    ("draw with strangers", lambda j, uow: votes.set_draw(j, uow, _power(uow.session, "FRANCE"), "France, Narnia"),
     "unknown_powers"),
    ("short password", lambda j, uow: player.set_password(j, uow, _power(uow.session, "FRANCE"), "ab"), "bad_password"),
    ("bad address", lambda j, uow: player.set_address(j, uow, _power(uow.session, "FRANCE"), "nowhere"), "bad_address"),
    ("grey press in a white game", lambda j, uow: press.plan_press(j, uow, _power(uow.session, "FRANCE"),
                                                                   press.PressRequest(True, grey=True)),
     "white_only"),
    ("press to no one", lambda j, uow: press.plan_press(j, uow, _power(uow.session, "FRANCE"), press.PressRequest(False)),
     "no_recipients"),
    ("empty press", lambda j, uow: press.send_press(j, uow, _power(uow.session, "FRANCE"),
                                                    press.PressPlan(True, tuple(POWERS), False), "  \n"),
     "empty_press"),
    ("pause as a player", lambda j, uow: gm.pause(j, uow, _power(uow.session, "FRANCE")), "not_gm"),
    ("resume a running game", lambda j, uow: gm.resume(j, uow, _gm(uow.session)), "not_paused"),
    ("deadline in a year", lambda j, uow: gm.set_deadline(j, uow, _gm(uow.session), "+9000h"), "deadline_too_far"),
    ("deadline now", lambda j, uow: gm.set_deadline(j, uow, _gm(uow.session), "+0m"), "deadline_in_past"),
    ("deadline in the past", lambda j, uow: gm.set_deadline(j, uow, _gm(uow.session), "2020-01-01 10:00"), "deadline_in_past"),
    ("hours out of range", lambda j, uow: gm.set_timing(j, uow, _gm(uow.session), "movement", "next_hours", -1.0),
     "hours_out_of_range"),
    ("unknown rule", lambda j, uow: gm.set_rule(j, uow, _gm(uow.session), "no_such_option", True), "bad_rule"),
    ("bad NMR policy", lambda j, uow: gm.set_option(j, uow, _gm(uow.session), "nmr", "explode"), "bad_option"),
    ("unknown time zone", lambda j, uow: gm.set_option(j, uow, _gm(uow.session), "timezone", "Mars/Olympus"), "bad_option"),
    ("eject a stranger", lambda j, uow: gm.eject(j, uow, _gm(uow.session), "nobody@example.com"), "no_player"),
    ("replace a non-power", lambda j, uow: gm.replace(j, uow, _gm(uow.session), "atlantis", "x@example.com"), "unknown_power"),
]


@pytest.mark.parametrize(("case", "call", "code"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_carry_a_code(playing: Harness, case: str, call: Callable[[Judge, UnitOfWork], Any], code: str) -> None:
    judge = playing.judge
    with unit(judge, commit=False) as uow, pytest.raises(DomainError) as refused:
        call(judge, uow)
    assert refused.value.code == code, refused.value.message
    assert refused.value.message


def test_sign_on_values(playing: Harness) -> None:
    judge = playing.judge
    with unit(judge, commit=False) as uow:
        db = uow.session
        stranger = Actor("someone@example.com")
        france = identity.sign_on(judge, uow, stranger, identity.SignOnTarget("alpha", letter="F"), "pwfrance")
        assert (france.role, france.power, france.power_name) == (Role.PLAYER, "FRANCE", "France")
        assert france.record_address == "france@example.com"
        by_name = identity.sign_on(judge, uow, stranger, identity.SignOnTarget("alpha", power="fra"), "pwfrance")
        assert by_name == france
        master = identity.sign_on(judge, uow, stranger, identity.SignOnTarget("alpha", letter="M"), "masterpw")
        assert (master.role, master.record_address) == (Role.GM, GM)
        seat = queries.seat_for_power(db, _game(db).id, "FRANCE")
        assert seat is not None
        assert identity.sign_on_by_token(judge, uow, seat.reply_token) == france
        assert identity.sign_on_by_token(judge, uow, "no-such-token") is None
        became = identity.become(judge, uow, _gm(db), "england")
        assert (became.power, became.power_name, became.record_address) == ("ENGLAND", "England",
                                                                            "england@example.com")


def test_gm_and_player_values(playing: Harness) -> None:
    judge = playing.judge
    with unit(judge) as uow:
        db = uow.session
        assert gm.set_timing(judge, uow, _gm(db), "all", "grace_hours", 12.0).kinds == gm.PHASE_KINDS
        assert gm.set_rule(judge, uow, _gm(db), "removal_default", "least_impact") == "least_impact"
        assert gm.set_rule(judge, uow, _gm(db), "removal_default", None) is None
        assert gm.set_option(judge, uow, _gm(db), "layout", "Zine") == "zine"
        assert player.set_wait(judge, uow, _power(db, "FRANCE"), True) is True
        vote = votes.set_draw(judge, uow, _power(db, "FRANCE"), "")
        assert vote.powers == tuple(sorted(POWERS)) and vote.dias and not vote.game_over
        plan = press.plan_press(judge, uow, _power(db, "FRANCE"), press.PressRequest(False, "england, germany"))
        assert plan.recipients == ("ENGLAND", "GERMANY")
        sent = press.send_press(judge, uow, _power(db, "FRANCE"), plan, "Hello")
        assert (sent.postal, sent.to_names, sent.mails) == (False, ("England", "Germany"), 2)
        resigned = player.resign(judge, uow, _power(db, "ITALY"))
        assert (resigned.left, resigned.power_name) == (False, "Italy")
        gm.set_option(judge, uow, _gm(db), "takeover", "open")
        took = lobby.takeover(judge, uow, Actor("new@example.com"), "alpha", "italy", "pwnew")
        assert isinstance(took, lobby.TookOver)
        assert (took.power, took.game_name) == ("ITALY", "alpha") and "+" in took.reply_address


def test_listing_values(playing: Harness) -> None:
    judge = playing.judge
    with unit(judge, commit=False) as uow:
        rows = listing.list_games(judge, uow, Actor("x@example.com"))
        assert [(r.name, r.status, r.phase) for r in rows] == [("alpha", "active", "S1901M")]
        info = listing.game_info(judge, uow, Actor("x@example.com"), "alpha")
        assert sorted(s.label for s in info.seats) == sorted(p.title() for p in POWERS)
        assert listing.game_history(judge, uow, Actor("x@example.com"), "alpha").results == ()
        summary = listing.game_summary(judge, uow, Actor("x@example.com"), "alpha")
        assert summary.powers == tuple(POWERS) and summary.centres == ()


@pytest.mark.parametrize(("body", "line"), [
    ("SIGNON master@alpha masterpw\nSET NMR explode", "Error: NMR policy is cd, hold, wait, dismiss or excuse:N"),
    ("SIGNON Falpha pwfrance\nPAUSE", "Error: only the game master may do that (sign on as master@game)"),
    ("SIGNON master@alpha masterpw\nBECOME atlantis", "Error: no power called 'atlantis'"),
    ("SIGNON Falpha wrong", "Error: wrong password for France in game 'alpha'"),
])
def test_the_mail_door_renders_a_refusal_as_an_error_line(playing: Harness, body: str, line: str) -> None:
    playing.send("france@example.com", body)
    assert line in playing.last_reply("france@example.com")
