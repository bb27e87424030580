"""Issue 11, identity: personal reply tokens, password guessing, Reply-To, echo masking, SPF/DMARC."""

from __future__ import annotations

import pytest

from tests.server.conftest import Harness, player, signon, token_address

# ----------------------------------------------------------------------------- 1: token rules


@pytest.mark.parametrize("leave", [
    ("FRANCE", "RESIGN"),
    ("gm@example.com", "SIGNON master@alpha masterpw\nEJECT France"),
])
def test_token_of_a_resigned_or_ejected_player_no_longer_signs_on(started: Harness, leave: tuple[str, str]) -> None:
    token = token_address(started, "FRANCE")
    who, text = leave
    sender = player(who) if who.isupper() else who
    started.send(sender, (signon("FRANCE") if who == "FRANCE" else "") + text)
    started.send(player("FRANCE"), "F Bre-Eng", to=token)
    reply = started.last_reply(player("FRANCE"))
    assert "F BRE - ENG" not in reply
    assert "no longer signs anyone on" in reply


def test_replace_and_takeover_revoke_the_token(started: Harness) -> None:
    token = token_address(started, "FRANCE")
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nREPLACE France new@example.com newpassword")
    started.send(player("FRANCE"), "A Par-Bur", to=token)
    assert "A PAR - BUR" not in started.last_reply(player("FRANCE"))


def test_set_password_issues_a_new_token(started: Harness) -> None:
    token = token_address(started, "FRANCE")
    started.send(player("FRANCE"), signon("FRANCE") + "SET PASSWORD longenough")
    rows = started.outbox(to=player("FRANCE"), kind="reply")
    assert rows[-1].reply_to and rows[-1].reply_to != token
    started.send(player("FRANCE"), "A Par-Bur", to=token)
    assert "A PAR - BUR" not in started.last_reply(player("FRANCE"))
    started.send(player("FRANCE"), "A Par-Bur", to=rows[-1].reply_to)
    assert "A PAR - BUR" in started.last_reply(player("FRANCE"))


def test_new_token_command(started: Harness) -> None:
    token = token_address(started, "FRANCE")
    started.send(player("FRANCE"), "NEW TOKEN", to=token)
    reply = started.outbox(to=player("FRANCE"), kind="reply")[-1]
    assert "personal reply address was changed" in reply.body_text
    assert reply.reply_to and reply.reply_to != token and reply.reply_to.split("+")[1] not in reply.body_text
    started.send(player("FRANCE"), "A Par-Bur", to=token)
    assert "A PAR - BUR" not in started.last_reply(player("FRANCE"))
    started.send(player("FRANCE"), "A Par-Bur", to=reply.reply_to)
    assert "A PAR - BUR" in started.last_reply(player("FRANCE"))


# ----------------------------------------------------------------------------- 2: guessing


def test_wrong_passwords_lock_the_seat_for_strangers(started: Harness) -> None:
    for number in range(12):
        started.send(f"evil{number % 3}@example.com", f"SIGNON Falpha guess{number}\nA Par-Bur")
    # not one copy per guess, one notice when the seat locked
    assert not started.outbox(to=player("FRANCE"), kind="copy")
    notices = started.outbox(to=player("FRANCE"), kind="lockout")
    assert len(notices) == 1
    assert "10 failed password sign-ons" in notices[0].body_text
    assert all(f"evil{n}@example.com" in notices[0].body_text for n in range(3))
    assert len(started.outbox(to="gm@example.com", kind="lockout")) == 1
    # locked: even the right password is refused from another address...
    started.send("evil0@example.com", signon("FRANCE") + "A Par-Bur")
    reply = started.last_reply("evil0@example.com")
    assert "too many wrong passwords" in reply and "A PAR - BUR" not in reply
    # ...and from the registered one (issue 18.2: anyone can write that From line); the token works
    started.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur")
    assert "A PAR - BUR" not in started.last_reply(player("FRANCE"))
    started.send(player("FRANCE"), "A Par-Bur", to=token_address(started, "FRANCE"))
    assert "A PAR - BUR" in started.last_reply(player("FRANCE"))
    # after the hour the seat opens again
    started.clock.advance(hours=1, minutes=1)
    started.send("friend@example.com", signon("FRANCE") + "A Par-Pic")
    assert "A PAR - PIC" in started.last_reply("friend@example.com")
    assert len(started.outbox(to=player("FRANCE"), kind="lockout")) == 1


def test_nine_wrong_passwords_do_not_lock(started: Harness) -> None:
    for number in range(9):
        started.send(f"evil{number}@example.com", f"SIGNON Falpha guess{number}")
    started.send("evil@example.com", signon("FRANCE") + "A Par-Bur")
    assert "A PAR - BUR" in started.last_reply("evil@example.com")
    assert not started.outbox(to=player("FRANCE"), kind="lockout")


def test_master_seat_locks_too(started: Harness) -> None:
    for number in range(10):
        started.send(f"evil{number}@example.com", f"SIGNON master@alpha guess{number}")
    started.send("evil@example.com", "SIGNON master@alpha masterpw\nPAUSE")
    assert "too many wrong passwords" in started.last_reply("evil@example.com")
    assert len(started.outbox(to="gm@example.com", kind="lockout")) == 1


def test_new_passwords_have_eight_characters(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "SET PASSWORD short77")
    reply = started.last_reply(player("FRANCE"))
    assert "at least 8 characters" in reply and "short77" not in reply
    started.send(player("FRANCE"), signon("FRANCE") + "SET PASSWORD long7777")
    assert "Password changed." in started.last_reply(player("FRANCE"))


# ----------------------------------------------------------------------------- 3: Reply-To


def test_stranger_with_the_password_never_gets_the_token(started: Harness) -> None:
    started.send("friend@example.com", signon("FRANCE") + "A Par H")
    answer = started.outbox(to="friend@example.com", kind="reply")[-1]
    assert "A PAR H" in answer.body_text
    assert answer.reply_to is None
    copy = started.outbox(to=player("FRANCE"), kind="copy")[-1]
    assert copy.reply_to == token_address(started, "FRANCE")


def test_player_of_record_gets_the_token(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "A Par H")
    answer = started.outbox(to=player("FRANCE"), kind="reply")[-1]
    assert answer.reply_to == token_address(started, "FRANCE")


# ----------------------------------------------------------------------------- 4: echo masking


@pytest.mark.parametrize("line", [
    "SIGNON ENGLAND demo secret99",
    "SIGNON Falpha secret99",
    "signon   france@alpha   secret99   extra",
    "SIGN ON Falpha secret99",
    "CREATE gamma secret99 standard",
    "JOIN alpha secret99 FRANCE",
    "OBSERVE alpha secret99",
    "TAKEOVER france@alpha secret99",
    "RESIGN Falpha secret99",
    "SET PASSWORD secret99",
    "SET   PASSWORD secret99 secret99",
])
def test_passwords_are_never_echoed(started: Harness, line: str) -> None:
    started.send("someone@example.com", line)
    reply = started.last_reply("someone@example.com")
    assert "secret99" not in reply, reply
    assert "****" in reply


def test_replace_does_not_show_the_new_password_to_the_gm(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nREPLACE France new@example.com secret99")
    reply = started.last_reply("gm@example.com")
    assert "secret99" not in reply and "masterpw" not in reply
    assert "Waiting for new@example.com to confirm" in reply  # issue 29: the new address must agree first
    assert "secret99" not in started.outbox(to="new@example.com", kind="confirmation")[0].body_text
    assert "you now play France" in started.last_reply("new@example.com")  # confirmed by the harness


def test_lines_left_unread_after_a_failed_signon_are_masked(started: Harness) -> None:
    started.send(player("ENGLAND"), "SIGNON Falpha wrong\nSIGNON Galpha secret99")
    reply = started.last_reply(player("ENGLAND"))
    assert "Unprocessed" in reply and "secret99" not in reply


# ----------------------------------------------------------------------------- 5: Authentication-Results


@pytest.mark.parametrize(("header", "failed"), [
    ("mx.judge.test; dmarc=fail (p=reject) header.from=example.com", True),
    ("mx.judge.test; spf=fail smtp.mailfrom=france@example.com; dkim=none", True),
    ("mx.judge.test; spf=fail smtp.mailfrom=bounce@other.org", False),
    ("mx.judge.test; dmarc=pass header.from=example.com; spf=pass", False),
    ("evil.example; dmarc=fail header.from=example.com", False),  # not our server: not trusted
    ("mx.judge.test 1; spf=fail", True),
    ("MX.JUDGE.TEST;\r\n dmarc=fail header.from=Example.COM", True),
])
def test_authentication_results_parser(header: str, failed: bool) -> None:
    from app.mail.reading.auth_results import sender_failed_authentication

    assert sender_failed_authentication([header], "mx.judge.test", "france@example.com") is failed
    assert sender_failed_authentication([header], "", "france@example.com") is False


def test_spoofed_player_address_is_a_stranger(started: Harness) -> None:
    """Issue 29 item 3: a sender the judge knows to be forged changes nothing, its password right or not;
    it gets a short notice (no personal reply address), and the token still works for the real player."""
    started.judge.settings.authserv_id = "mx.judge.test"
    spoof = {"Authentication-Results": "mx.judge.test; dmarc=fail header.from=example.com"}
    started.send(player("FRANCE"), signon("FRANCE") + "A Par H", headers=spoof)
    answer = started.outbox(to=player("FRANCE"), kind="reply")[-1]
    assert "ran none of\nits commands" in answer.body_text and "A PAR H" not in answer.body_text
    assert answer.reply_to is None  # never the token
    started.send(player("FRANCE"), "A Par-Bur", to=token_address(started, "FRANCE"), headers=spoof)
    assert "A PAR - BUR" not in started.outbox(to=player("FRANCE"), kind="reply")[-1].body_text
    started.send(player("FRANCE"), "A Par-Bur", to=token_address(started, "FRANCE"))  # the token still works
    assert "A PAR - BUR" in started.outbox(to=player("FRANCE"), kind="reply")[-1].body_text
