"""Step 2 of the reading: format=flowed (RFC 3676) undone."""

from __future__ import annotations

import pytest

from app.mail.reading.flowed import unflow
from app.mail.reading.messages import parse_message


@pytest.mark.parametrize(("text", "delsp", "expected"), [
    ("Fleet London - North Sea, Army \nLiverpool - Yorkshire\n", False,
     "Fleet London - North Sea, Army Liverpool - Yorkshire\n"),
    ("A Ber-Pru, A Mun- \nBur\n", True, "A Ber-Pru, A Mun-Bur\n"),  # DelSp=yes: the space was the client's
    (" From the Kaiser\n >A Ber-Pru\n", False, "From the Kaiser\n>A Ber-Pru\n"),  # space-stuffing undone
    ("> old line one \n> continues\nA Mun-Ruh\n", False, "> old line one continues\nA Mun-Ruh\n"),
    ("> quoted soft \nnot quoted\n", False, "> quoted soft \nnot quoted\n"),  # a depth change ends it
    (">> deep \n>> deeper\n", False, "> > deep deeper\n"),
    ("A Kie-Hol\n-- \nHans\n", False, "A Kie-Hol\n-- \nHans\n"),  # the signature line is never soft
    ("one \ntwo \n", False, "one two \n"),  # a last soft line stays as it is
])
def test_unflow(text: str, delsp: bool, expected: str) -> None:
    assert unflow(text, delsp) == expected


def _flowed(body: str, delsp: bool = False) -> bytes:
    params = "; format=flowed" + ("; delsp=yes" if delsp else "")
    return (f"From: p@example.org\r\nTo: judge@judge.test\r\nSubject: orders\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/plain; charset=UTF-8{params}\r\nContent-Transfer-Encoding: 7bit\r\n\r\n"
            + body.replace("\n", "\r\n")).encode()


def test_a_flowed_mail_is_read_with_its_long_lines_whole() -> None:
    raw = _flowed("SIGNON Eclients pw\nFleet London - North Sea, Fleet Edinburgh - Norwegian Sea, Army \n"
                  "Liverpool - Yorkshire\n")
    assert parse_message(raw).text.splitlines() == [
        "SIGNON Eclients pw", "Fleet London - North Sea, Fleet Edinburgh - Norwegian Sea, Army Liverpool - Yorkshire"]


def test_delsp_yes_joins_without_the_space() -> None:
    assert parse_message(_flowed("A Ber-Pru; A Mun-Bu \nr\n", delsp=True)).text == "A Ber-Pru; A Mun-Bur\n"


def test_a_fixed_mail_is_not_joined() -> None:
    raw = _flowed("A Ber-Pru \nA Mun-Bur\n").replace(b"; format=flowed", b"")
    assert parse_message(raw).text == "A Ber-Pru \nA Mun-Bur\n"
