"""Issue 29 item 1: a seat (or a game) pointed at another address waits for that address to confirm.

``SET ADDRESS``, ``REPLACE`` and ``DOD3 SEAT`` (and the dashboard's *Replace*) used to give a seat to
any address at once: one confirmed attacker could create a game, then point its seats at victims,
who got every result and press mail without ever having agreed.  Now the new address gets one short
confirmation mail that quotes nothing anyone wrote, and nothing else until it answers; the seat keeps
its address meanwhile; one actor may ask only a few addresses an hour."""

from __future__ import annotations

from sqlalchemy import select

from app.db.models import Game, Player
from app.db.statuses import SeatStatus
from app.mail.runners.inbound import handle_raw
from app.scheduler import tick
from app.services.errors import DomainError
from app.services.games import gm
from app.services.kernel.actor import Actor, Role
from app.services.mailout.address_confirmation import ADDRESS_CONFIRMATIONS_PER_HOUR
from tests.server.conftest import Harness, hold_all, make_mail, player, signon
from tests.support.units import unit

GM = "SIGNON master@alpha masterpw\n"
VICTIM = "victim@third.test"
SPAM = "Buy cheap pills at spam.example now"


def _seat_email(harness: Harness, power: str) -> str:
    with harness.judge.sessions.begin() as db:
        return db.scalars(select(Player.email).where(Player.power == power)).one()


def _only_confirmation(harness: Harness, address: str) -> str:
    """The one mail ``address`` got: a confirmation; its one-time reply address."""
    mails = harness.outbox(to=address)
    assert [m.kind for m in mails] == ["confirmation"], [(m.kind, m.subject) for m in mails]
    text = mails[0].subject + "\n" + mails[0].body_text
    assert "confirm" in text and SPAM not in text and "masterpw" not in text
    assert mails[0].reply_to and mails[0].reply_to.startswith("judge+c-")
    return mails[0].reply_to


def _answer(harness: Harness, address: str, reply_to: str) -> str:
    handle_raw(harness.judge, make_mail(address, "yes", to=reply_to, subject="Re: confirm"))
    return harness.last_reply(address)


def _results_to(harness: Harness, address: str) -> int:
    return sum(m.kind not in ("confirmation", "reply") for m in harness.outbox(to=address))


def test_replace_waits_for_the_new_address(started: Harness) -> None:
    started.send("gm@example.com", GM + f"REPLACE Italy {VICTIM}\n{SPAM}", confirm=False)
    assert "Waiting for victim@third.test to confirm" in started.last_reply("gm@example.com")
    reply_to = _only_confirmation(started, VICTIM)
    assert _seat_email(started, "ITALY") == player("ITALY")  # the seat is unchanged
    hold_all(started)
    started.clock.advance(minutes=5)
    tick(started.judge)
    assert _results_to(started, VICTIM) == 0 and _results_to(started, player("ITALY")) > 0  # results: the old seat
    assert "you now play Italy" in _answer(started, VICTIM, reply_to)
    assert _seat_email(started, "ITALY") == VICTIM
    assert started.outbox(to=VICTIM, kind="start")  # its welcome


def test_set_address_waits_for_the_new_address(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + f"SET ADDRESS {VICTIM}", confirm=False)
    assert "Waiting for victim@third.test to confirm" in started.last_reply(player("FRANCE"))
    reply_to = _only_confirmation(started, VICTIM)
    assert _seat_email(started, "FRANCE") == player("FRANCE")
    hold_all(started)
    started.clock.advance(minutes=5)
    tick(started.judge)
    assert _results_to(started, VICTIM) == 0 and _results_to(started, player("FRANCE")) > 0
    assert "now writes to this address" in _answer(started, VICTIM, reply_to)
    assert _seat_email(started, "FRANCE") == VICTIM


def test_set_address_of_the_master_waits(started: Harness) -> None:
    started.send("gm@example.com", GM + f"SET ADDRESS {VICTIM}", confirm=False)
    reply_to = _only_confirmation(started, VICTIM)
    with started.judge.sessions.begin() as db:
        assert db.scalars(select(Game.master_email).where(Game.name == "alpha")).one() == "gm@example.com"
    _answer(started, VICTIM, reply_to)
    with started.judge.sessions.begin() as db:
        assert db.scalars(select(Game.master_email).where(Game.name == "alpha")).one() == VICTIM


def test_an_own_proven_address_needs_no_confirmation(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + f"SET ADDRESS {player('FRANCE').upper()}", confirm=False)
    assert "Address changed" in started.last_reply(player("FRANCE"))
    # the GM gives a seat to itself: its own address, proved by the game's password from it
    started.send("gm@example.com", GM + "REPLACE Italy gm@example.com", confirm=False)
    assert _seat_email(started, "ITALY") == "gm@example.com"
    assert not started.outbox(kind="confirmation")


def test_a_code_sent_from_elsewhere_confirms_too(started: Harness) -> None:
    started.send("gm@example.com", GM + f"REPLACE Italy {VICTIM}", confirm=False)
    code = _only_confirmation(started, VICTIM).split("+c-")[1].split("@")[0]
    started.send("other@example.org", f"CONFIRM {code}", confirm=False)
    assert _seat_email(started, "ITALY") == VICTIM


def test_the_confirmations_one_actor_asks_are_capped(started: Harness) -> None:
    lines = "".join(f"REPLACE Italy v{n}@third.test\n" for n in range(ADDRESS_CONFIRMATIONS_PER_HOUR + 3))
    started.send("gm@example.com", GM + lines, confirm=False)
    asked = started.outbox(kind="confirmation")
    assert len(asked) == ADDRESS_CONFIRMATIONS_PER_HOUR
    assert "the most the judge sends for one person" in started.last_reply("gm@example.com")
    started.clock.advance(hours=1, minutes=1)
    started.send("gm@example.com", GM + "REPLACE Italy late@third.test", confirm=False)
    assert len(started.outbox(kind="confirmation")) == ADDRESS_CONFIRMATIONS_PER_HOUR + 1


def test_the_dashboard_replace_waits_too(started: Harness) -> None:
    """The dashboard's *Replace* calls the same use case, with its signed-in (proven) GM."""
    with unit(started.judge) as uow:
        game = uow.session.scalars(select(Game).where(Game.name == "alpha")).one()
        actor = Actor("gm@example.com", Role.GM, game.id, proven=True)
        assert gm.replace(started.judge, uow, actor, "Italy", VICTIM).pending
    reply_to = _only_confirmation(started, VICTIM)
    assert _seat_email(started, "ITALY") == player("ITALY")
    _answer(started, VICTIM, reply_to)
    assert _seat_email(started, "ITALY") == VICTIM


def test_a_vacant_seat_stays_vacant_until_the_new_player_confirms(started: Harness) -> None:
    started.send(player("ITALY"), signon("ITALY") + "RESIGN")
    started.send("gm@example.com", GM + f"REPLACE Italy {VICTIM}", confirm=False)
    with started.judge.sessions.begin() as db:
        seat = db.scalars(select(Player).where(Player.power == "ITALY")).one()
        assert seat.status == SeatStatus.RESIGNED and seat.email == player("ITALY")
    _answer(started, VICTIM, _only_confirmation(started, VICTIM))
    with started.judge.sessions.begin() as db:
        seat = db.scalars(select(Player).where(Player.power == "ITALY")).one()
        assert seat.status == SeatStatus.ACTIVE and seat.email == VICTIM


def test_the_cap_is_a_domain_error(started: Harness) -> None:
    with unit(started.judge) as uow:
        game = uow.session.scalars(select(Game).where(Game.name == "alpha")).one()
        actor = Actor("gm@example.com", Role.GM, game.id, proven=True)
        for n in range(ADDRESS_CONFIRMATIONS_PER_HOUR):
            gm.replace(started.judge, uow, actor, "Italy", f"x{n}@third.test")
        try:
            gm.replace(started.judge, uow, actor, "Italy", "one-too-many@third.test")
        except DomainError as error:
            assert error.code == "confirmations_spent"
        else:
            raise AssertionError("the cap did not hold")


def test_dod3_seat_waits_for_the_address(harness: Harness) -> None:
    harness.send("gm@example.com", "DOD3 CREATE gazette masterpw1 PRESET 4b")
    harness.send("gm@example.com", "SIGNON master@gazette masterpw1\nDOD3 SEAT RU victim@third.test seatpw12",
                 confirm=False)
    assert "Waiting for victim@third.test to confirm" in harness.last_reply("gm@example.com")
    reply_to = _only_confirmation(harness, VICTIM)
    assert "seatpw12" not in harness.outbox(to=VICTIM)[0].body_text
    with harness.judge.sessions.begin() as db:
        assert not db.scalars(select(Player).where(Player.email == VICTIM)).all()
    assert "you are seated" in _answer(harness, VICTIM, reply_to)
    with harness.judge.sessions.begin() as db:
        assert db.scalars(select(Player.power).where(Player.email == VICTIM)).all() == ["RU"]
    harness.send(VICTIM, "SIGNON Rgazette seatpw12", confirm=False)  # the GM's password works
    assert "Signed on" in harness.last_reply(VICTIM)


def test_approving_a_takeover_request_needs_no_second_confirmation(started: Harness) -> None:
    started.send(player("ITALY"), signon("ITALY") + "RESIGN")
    started.send("asker@example.org", "TAKEOVER italy@alpha chosen-pw1")  # confirmed by the harness
    before = len(started.outbox(kind="confirmation"))
    started.send("gm@example.com", GM + "REPLACE Italy asker@example.org", confirm=False)
    assert _seat_email(started, "ITALY") == "asker@example.org"
    assert len(started.outbox(kind="confirmation")) == before
