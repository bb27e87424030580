"""Issue 18, the mail door: a From line proves nothing (authentication, lock-out, strangers' answers,
observers' press, passwords never echoed, the judge's own addresses, per-address limits, and input
that must not turn into commands)."""

from __future__ import annotations

import base64

import pytest
from sqlalchemy import select

from app.db import queries
from app.db.models import Game, Player, Press
from app.mail.runners.inbound import handle_raw
from app.services.bootstrap import transaction
from app.services.games.admin import create_game_direct
from tests.server.conftest import Harness, player, signon, token_address

GM = "SIGNON master@alpha masterpw\n"
DMARC_FAIL = {"Authentication-Results": "mx.judge.test; dmarc=fail (p=reject) header.from=example.com"}


def _orders(harness: Harness, power: str) -> list[str]:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase
        return [row.order or row.line for row in queries.orders_for(db, game.id, game.phase, power)]


def _game_exists(harness: Harness, name: str) -> bool:
    with harness.judge.sessions.begin() as db:
        return queries.game_by_name(db, name) is not None


# ----------------------------------------------------------------------------- 18.1: CREATE and DMARC


@pytest.mark.parametrize("command", ["CREATE evilgame evilpass1", "DOD3 CREATE evilgame evilpass1"])
def test_create_from_a_domain_failing_dmarc_is_refused(harness: Harness, command: str) -> None:
    harness.judge.settings.authserv_id = "mx.judge.test"
    harness.send("keeper@example.com", command, headers=DMARC_FAIL)
    reply = harness.last_reply("keeper@example.com")
    assert "failed its domain's SPF or DMARC check" in reply
    assert not _game_exists(harness, "evilgame")
    harness.send("keeper@example.com", command)  # authenticated (or no verdict): created
    assert _game_exists(harness, "evilgame")


# ----------------------------------------------------------------------------- 18.2: lock-out and token


def _lock_france(harness: Harness) -> None:
    for number in range(10):
        harness.send(f"evil{number}@example.com", f"SIGNON Falpha guess{number}")
    assert len(harness.outbox(to=player("FRANCE"), kind="lockout")) == 1


def test_lockout_refuses_the_registered_address_too(started: Harness) -> None:
    _lock_france(started)
    started.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur")  # anyone can write this From line
    reply = started.last_reply(player("FRANCE"))
    assert "too many wrong passwords" in reply and "A PAR - BUR" not in reply
    assert "A PAR - BUR" not in _orders(started, "FRANCE")


def test_personal_reply_address_works_while_the_password_is_locked(started: Harness) -> None:
    _lock_france(started)
    started.send(player("FRANCE"), "A Par-Bur", to=token_address(started, "FRANCE"))
    assert "A PAR - BUR" in started.last_reply(player("FRANCE"))
    assert "A PAR - BUR" in _orders(started, "FRANCE")


@pytest.mark.parametrize(("command", "what"), [
    ("SET ADDRESS attacker@evil.org", "attacker@evil.org"),
    ("SET PASSWORD brandnew99", "Password changed."),
])
def test_set_address_and_set_password_tell_the_old_address(started: Harness, command: str, what: str) -> None:
    started.send("attacker@evil.org", signon("FRANCE") + command)
    copy = started.outbox(to=player("FRANCE"), kind="copy")[-1]
    assert what in copy.body_text and "attacker@evil.org" in copy.body_text
    assert "brandnew99" not in copy.body_text


# ----------------------------------------------------------------------------- 18.3: strangers, big answers


def test_a_stranger_gets_a_few_answers_an_hour_in_all(started: Harness) -> None:
    bodies = ["HELP", "HISTORY alpha", "MAP alpha", "LIST alpha", "SUMMARY alpha"]
    for number in range(30):
        started.send("victim@example.org", bodies[number % len(bodies)])
    answers = started.outbox(to="victim@example.org")
    assert len(answers) == started.judge.settings.stranger_budget == 5
    assert sum(len(row.body_text) for row in answers) < 30_000
    started.clock.advance(hours=1, minutes=1)
    started.send("victim@example.org", "LIST")
    assert len(started.outbox(to="victim@example.org")) == 6


def test_players_of_record_are_not_held_to_the_strangers_budget(started: Harness) -> None:
    for _ in range(8):
        started.send(player("ITALY"), "LIST")
    assert len(started.outbox(to=player("ITALY"), kind="reply")) >= 8


def test_maps_and_histories_go_only_to_addresses_of_record(started: Harness) -> None:
    for command in ("MAP alpha", "HISTORY alpha"):
        started.send("victim@example.org", command)
        reply = started.outbox(to="victim@example.org")[-1]
        assert "mailed only to the players, observers and game masters" in reply.body_text
        assert reply.map_id is None
    started.send(player("ITALY"), "MAP alpha")
    assert started.outbox(to=player("ITALY"), kind="reply")[-1].map_id is not None
    started.send("elsewhere@example.org", "MAP alpha", to=token_address(started, "ITALY"))
    assert started.outbox(to="elsewhere@example.org")[-1].map_id is not None


def test_one_observer_seat_per_address_and_game(started: Harness) -> None:
    started.send("victim@example.org", "\n".join(["OBSERVE alpha watchpw1"] * 20))
    with started.judge.sessions.begin() as db:
        seats = db.scalars(select(Player).where(Player.email == "victim@example.org")).all()
    assert len(seats) == 1
    assert "one address holds one seat per game" in started.last_reply("victim@example.org")


# ----------------------------------------------------------------------------- 18.4: observers' press


def test_observers_send_no_press_unless_the_gm_allows_it_and_never_grey(started: Harness) -> None:
    started.send("watcher@example.org", "OBSERVE alpha watchpw1")
    started.send("watcher@example.org", "SIGNON Oalpha watchpw1\nBROADCAST\nI am England, really.\nENDPRESS")
    assert "observers may not send press" in started.last_reply("watcher@example.org")
    assert not started.outbox(kind="press")
    started.send("gm@example.com", GM + "SET PRESS white/grey OBSERVERS")
    started.send("watcher@example.org", "SIGNON Oalpha watchpw1\nBROADCAST GREY\nSomeone speaks.\nENDPRESS")
    assert "observers send no grey press" in started.last_reply("watcher@example.org")
    assert not started.outbox(kind="press")
    started.send("watcher@example.org", "SIGNON Oalpha watchpw1\nPRESS TO England\nHello.\nENDPRESS")
    press = started.outbox(to=player("ENGLAND"), kind="press")
    assert len(press) == 1 and "from Observer" in press[0].body_text
    started.send("gm@example.com", GM + "SET PRESS white/grey")  # without OBSERVERS: taken back
    started.send("watcher@example.org", "SIGNON Oalpha watchpw1\nPRESS TO England\nAgain.\nENDPRESS")
    assert len(started.outbox(to=player("ENGLAND"), kind="press")) == 1


# ----------------------------------------------------------------------------- 18.5: passwords never echoed


@pytest.mark.parametrize(("sender", "body"), [
    ("someone@example.org", "SIGNON: Falpha secret99"),
    ("someone@example.org", "* SIGNON Falpha secret99"),
    ("someone@example.org", "Please SIGNON Falpha secret99"),
    ("someone@example.org", "SIGNON secret99"),
    ("someone@example.org", "RESIGN secret99"),
    ("someone@example.org", "OBSERVE secret99"),
    ("someone@example.org", "SIGNON:Falpha secret99"),
    (player("FRANCE"), signon("FRANCE") + "RESIGN secret99"),
    (player("FRANCE"), signon("FRANCE") + "SIGNON: Falpha secret99"),
    ("gm@example.com", GM + "REPLACE Italy secret99"),
])
def test_no_form_of_a_password_line_is_echoed(started: Harness, sender: str, body: str) -> None:
    started.send(sender, body, subject="SIGNON Falpha secret99")
    answers = [row for row in started.outbox(to=sender) if row.kind in ("reply", "copy")]
    assert "secret99" not in answers[-1].body_text and "secret99" not in answers[-1].subject
    if sender.startswith("someone"):  # a stranger: the answer quotes nothing of its mail (issue 29 item 5)
        assert "Falpha" not in answers[-1].body_text and "Falpha" not in answers[-1].subject
    else:
        assert "****" in answers[-1].body_text


@pytest.mark.parametrize("invisible", ["\ufeff", "\u200b", "\u2060", "\u200b\ufeff "])
def test_an_invisible_character_before_signon_is_dropped(started: Harness, invisible: str) -> None:
    started.send(player("FRANCE"), f"{invisible}SIGNON Falpha pwfrance\nA Par-Bur")
    reply = started.last_reply(player("FRANCE"))
    assert "pwfrance" not in reply
    assert "A PAR - BUR" in _orders(started, "FRANCE")


def test_resign_with_one_word_resigns_nothing(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "RESIGN secret99")
    with started.judge.sessions.begin() as db:
        seat = db.scalars(select(Player).where(Player.email == player("FRANCE"))).one()
        assert seat.status == "active"


@pytest.mark.parametrize(("line", "shown"), [
    ("SIGNON Falpha pw", "SIGNON Falpha ****"),
    ("SIGNON: Falpha pw", "SIGNON: Falpha ****"),
    ("Please sign on Falpha pw", "Please sign on Falpha ****"),
    ("SIGNON pw", "SIGNON ****"),
    ("RESIGN pw", "RESIGN ****"),
    ("OBSERVE pw", "OBSERVE ****"),
    ("REPLACE Italy pw", "REPLACE Italy ****"),
    ("REPLACE Italy new@example.org", "REPLACE Italy new@example.org"),
    ("REPLACE Italy new@example.org pw", "REPLACE Italy new@example.org ****"),
    ("DOD3 SEAT CW+FR ann@example.org pw", "DOD3 SEAT CW+FR ann@example.org ****"),
    ("SET PASSWORD pw", "SET PASSWORD ****"),
    ("JOIN alpha pw France Germany", "JOIN alpha **** France Germany"),  # the preferences are no secret (28.21)
    ("JOIN alpha pw", "JOIN alpha ****"),
    ("A Par-Bur", "A Par-Bur"),
    ("LIST alpha", "LIST alpha"),
])
def test_mask_passwords(line: str, shown: str) -> None:
    from app.services.mailout.redact import mask_passwords

    assert mask_passwords(line) == shown
    assert mask_passwords(f"x\n{line}") == f"x\n{shown}"


# ----------------------------------------------------------------------------- 18.6: the judge's own addresses


@pytest.mark.parametrize("address", [
    "judge@judge.test", "judge+x@judge.test", "JUDGE+k3x9@judge.test", "mailer-daemon@example.com",
    "postmaster@example.com", "no-reply@example.com", "noreply@example.com", "list-bounces@example.com",
])
def test_the_judges_own_and_daemon_addresses_are_refused(started: Harness, address: str) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + f"SET ADDRESS {address}")
    assert "Address changed" not in started.last_reply(player("FRANCE"))
    started.send("gm@example.com", GM + f"REPLACE Italy {address} newpassw0rd")
    assert "is now played by" not in started.last_reply("gm@example.com")
    with started.judge.sessions.begin() as db:
        assert db.scalars(select(Player).where(Player.email == address.lower())).first() is None


# ----------------------------------------------------------------------------- 18.7: per-address limits


def test_create_is_limited_per_address_and_day(harness: Harness) -> None:
    harness.send("maker@example.com", "\n".join(f"CREATE game{n} pass{n}word" for n in range(8)))
    with harness.judge.sessions.begin() as db:
        made = db.scalars(select(Game.name).where(Game.master_email == "maker@example.com")).all()
    assert len(made) == harness.judge.settings.creates_per_day == 5
    assert "try again tomorrow" in harness.last_reply("maker@example.com")
    harness.clock.advance(hours=24, minutes=1)
    harness.send("maker@example.com", "CREATE later laterpass1")
    assert _game_exists(harness, "later")


def test_observer_seats_are_limited_per_address(harness: Harness) -> None:
    for number in range(12):
        with transaction(harness.judge) as unit:
            create_game_direct(harness.judge, unit, f"obs{number}", "gm@example.com", "masterpw", start=False)
    harness.send("watcher@example.org", "\n".join(f"OBSERVE obs{n} watchpw1" for n in range(12)))
    with harness.judge.sessions.begin() as db:
        seats = db.scalars(select(Player).where(Player.email == "watcher@example.org")).all()
    assert len(seats) == harness.judge.settings.observer_seats == 10
    assert "RESIGN from one first" in harness.last_reply("watcher@example.org")


# ----------------------------------------------------------------------------- 18.12: a signature in a press


@pytest.mark.parametrize("to", ["England", "Narnia"])
def test_a_signature_inside_a_press_ends_the_mail(started: Harness, to: str) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + f"PRESS TO {to}\nhello\n--\nA Par-Gas\nF Bre-Mao")
    assert _orders(started, "FRANCE") == []
    assert "PAR - GAS" not in started.last_reply(player("FRANCE"))


# ----------------------------------------------------------------------------- 18.13: a cut last line


def test_the_half_line_where_a_long_mail_is_cut_is_not_run(started: Harness) -> None:
    head = signon("GERMANY") + "A Ber H\n"
    cut_at = 64 * 1024 - len("A Mun S A Ber")
    filler = ""
    while len(head) + len(filler) + 90 < cut_at:
        filler += "// " + "x" * 86 + "\n"
    filler += "// " + "y" * (cut_at - len(head) - len(filler) - 4) + "\n"
    assert len(head + filler) == cut_at
    started.send(player("GERMANY"), head + filler + "A Mun S A Ber-Sil\nF Kie-Den\n")
    reply = started.last_reply(player("GERMANY"))
    assert "this mail was cut" in reply and "was not run" in reply
    orders = _orders(started, "GERMANY")
    assert "A BER H" in orders and not any(order.startswith("A MUN") for order in orders)


def _raw(body: bytes, content: str) -> bytes:
    return (b"From: germany@example.com\r\nTo: judge@judge.test\r\nSubject: orders\r\n"
            b"Message-ID: <cut." + str(len(body)).encode() + b"@test>\r\nMIME-Version: 1.0\r\n"
            + content.encode() + b"\r\n\r\n" + body)


@pytest.mark.parametrize("raw", [
    _raw(b"--BB\r\nContent-Type: text/plain\r\n\r\nSIGNON Galpha pwgermany\r\nA Ber H\r\nA Mun S A Ber",
         'Content-Type: multipart/alternative; boundary="BB"'),
    _raw(base64.b64encode(b"SIGNON Galpha pwgermany\nA Ber H\nA Mun S A Ber-Sil\n")[:-6],
         "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64"),
])
def test_the_last_line_of_a_mail_that_arrived_cut_is_not_run(started: Harness, raw: bytes) -> None:
    handle_raw(started.judge, raw)
    reply = started.last_reply(player("GERMANY"))
    assert "this mail was cut" in reply and "was not run" in reply
    orders = _orders(started, "GERMANY")
    assert "A BER H" in orders and not any(order.startswith("A MUN") for order in orders)


@pytest.mark.parametrize("end", [b"\r\n--BB--\r\n", b"\r\n"])
def test_a_multipart_mail_ending_with_a_whole_line_runs_it(started: Harness, end: bytes) -> None:
    handle_raw(started.judge, _raw(b"--BB\r\nContent-Type: text/plain\r\n\r\nSIGNON Galpha pwgermany\r\n"
                                   b"A Mun-Sil" + end, 'Content-Type: multipart/alternative; boundary="BB"'))
    assert "A MUN - SIL" in _orders(started, "GERMANY")


# ----------------------------------------------------------------------------- 18.14: press text


def test_press_is_stored_and_relayed_without_escapes_or_bidi_overrides(started: Harness) -> None:
    text = "Hi \x1b]0;pwned\x07there \x1b[31mred\x1b[0m \u202eesrever\u202c bell\x07 c1\x9b2J end\ttab"
    started.send(player("FRANCE"), signon("FRANCE") + f"PRESS TO England\n{text}\nENDPRESS")
    relayed = started.outbox(to=player("ENGLAND"), kind="press")[0].body_text
    with started.judge.sessions.begin() as db:
        stored = db.scalars(select(Press.body)).one()
    for body in (stored, relayed):
        assert not any(ord(c) < 32 and c not in "\n\t" or 0x7f <= ord(c) <= 0x9f for c in body), repr(body)
        assert "\u202e" not in body and "pwned" not in body
        assert "Hi there red esrever bell c1 end\ttab" in body


def test_clean_text() -> None:
    from app.services.kernel.text_clean import clean_text

    assert clean_text("a\x1b[1;31mb\x1b]2;t\x1b\\c\x00d\u2066e\u2069\r\nf\x85g") == "abcde\nfg"
