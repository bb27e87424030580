"""Refusals are codes with data; each door words them (issue 27.2).

The use cases say what they refuse in door-neutral words; the mail door adds the command to send
(``app/mail/commands/refusals.py``), word for word as the replies always said it; the web door its own
controls (``app/web/refusals.py``).  Notices the use cases mail are templates, not f-strings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.mail.commands.refusals import refusal_text
from app.services.errors import DomainError

SERVICES = Path(__file__).resolve().parents[2] / "app" / "services"

# The mail door's words: a command to send, or its usage line.
_MAIL_WORDS = re.compile(r"use PROCESS|add CONFIRM|SIGNON <|SET PRESS|GRANT ABSENCE|RESIGN from|BECOME one|"
                         r"use TAKEOVER|TAKEOVER a vacant|CONTEST <|SET EARLY|SET ABSENCE|with REPLACE|DOD3 SEAT|"
                         r"DOD3 CREATE|not DOD3|usage: DOD3")


def _refusal_texts(source: str) -> list[str]:
    """The text of every ``DomainError(...)`` call in a module (its string literals)."""
    texts = []
    for found in re.finditer(r"DomainError\(", source):
        depth, end = 0, found.end() - 1
        for end in range(found.end() - 1, len(source)):
            depth += {"(": 1, ")": -1}.get(source[end], 0)
            if depth == 0:
                break
        texts.append(source[found.start():end + 1])
    return texts


def test_no_use_case_refuses_in_the_mail_doors_words() -> None:
    worded = [f"{path.relative_to(SERVICES)}: {text[:90]}" for path in sorted(SERVICES.rglob("*.py"))
              for text in _refusal_texts(path.read_text()) if _MAIL_WORDS.search(text)]
    assert worded == []


@pytest.mark.parametrize("module", ["turns/deadlines.py", "games/gm.py"])
def test_the_notices_of_deadlines_and_the_gm_are_templates(module: str) -> None:
    source = (SERVICES / module).read_text()
    assert not re.search(r"mail_(game|seat|master)\([^)]*?\bf\"", source, re.S), "a notice written as an f-string"


# What each refusal said in every mail reply before the codes (docs/commands.md, held-out tests).
_AS_MAILED = [
    (DomainError("deadline_in_past", "deadline not changed: Sun Mar 01 2026 12:00 UTC is not in the future",
                 deadline="Sun Mar 01 2026 12:00 UTC"),
     "deadline not changed: Sun Mar 01 2026 12:00 UTC is not in the future; to adjudicate the phase now, use PROCESS"),
    (DomainError("deadline_in_absence", "deadline not changed: France is absent from A to B.  The first time after "
                 "that absence is C", absent="France is absent from A to B", first_free="C", deadline="D"),
     "deadline not changed: France is absent from A to B.  The first time after that absence is C; to set D all "
     "the same, add CONFIRM"),
    (DomainError("not_signed_on", "sign on to a game first"),
     "sign on to a game first (SIGNON <power letter><game> <password>)"),
    (DomainError("not_signed_on", "sign on as one of your powers first", dod3=True),
     "sign on as one of your powers first (SIGNON <power>@<game> <password>)"),
    (DomainError("bad_option", "early processing takes minutes (0 or more), or off", option="early", range=False),
     "SET EARLY takes minutes (0 or more), or off"),
    (DomainError("bad_option", "x", option="early", range=True),
     "SET EARLY takes minutes from 0 to a week (10080), or off"),
    (DomainError("observer_press", "x", game="alpha"),
     "observers may not send press in game 'alpha' (the GM may allow it: SET PRESS ... OBSERVERS)"),
    (DomainError("not_forming", "x", game="alpha", takeover=True),
     "game 'alpha' is not forming; TAKEOVER a vacant power instead"),
    (DomainError("seated_by_gm", "x", game="d"),
     "the players of the Days of Decision III game 'd' are seated by its GM (DOD3 SEAT): ask the GM for a seat"),
    (DomainError("vacant", "x", power="Italy"), "Italy is vacant: use TAKEOVER"),
    (DomainError("no_phase", "x", contest=True), "say which phase you contest: CONTEST <phase> <what is wrong>"),
    (DomainError("no_text", "x", contest=True), "say what you contest: CONTEST <phase> <what is wrong>"),
    (DomainError("observer_limit", "x", address="w@x.org", held=10, limit=10),
     "w@x.org already observes 10 games, the most one address may (JUDGE_OBSERVER_SEATS = 10); RESIGN from one first"),
    (DomainError("no_power", "sign on as a power, or act as one, to give orders"),
     "sign on as a power, or BECOME one, to give orders"),
    (DomainError("bad_absence", "say when the absence starts and ends, like 2026-12-01 to 2026-12-07"),
     "say SET ABSENCE 2026-12-01 TO 2026-12-07"),
    (DomainError("absence_cap", "x", cap=14, window=60, used="10.0", total="20.0"),
     "absences are capped at 14 days in any 60 days of a game (10.0 days already taken; this one would make 20.0); "
     "ask the game master to GRANT ABSENCE"),
    (DomainError("master_not_vacant", "x"), "the master role is handed over by the GM with REPLACE"),
    (DomainError("seats_missing", "x", missing="GE, IT"),
     "no player yet for GE, IT (DOD3 SEAT <player> <address> <password>)"),
    (DomainError("dod3_no_setup", "x", game="d"),
     "game 'd' has no Days of Decision III set-up (create it with DOD3 CREATE)"),
    (DomainError("setup_field", "x", field="WEATHER"),
     "before the start only PE, MONEY, CREDIT, BIDPOINTS and OBJECTIVES are set (not DOD3 WEATHER)"),
    (DomainError("usage", "x", usage="effect"), "usage: DOD3 EFFECT [<power>] <text>"),
    (DomainError("usage", "x", usage="record"), "usage: DOD3 RECORD <text>"),
    (DomainError("usage", "x", usage="weather"), "usage: DOD3 WEATHER <result>"),
]


@pytest.mark.parametrize(("error", "mailed"), _AS_MAILED, ids=[e.code for e, _ in _AS_MAILED])
def test_the_mail_door_words_each_code_as_the_replies_always_did(error: DomainError, mailed: str) -> None:
    assert refusal_text(error) == mailed


def test_a_code_without_a_wording_or_its_values_is_its_message() -> None:
    assert refusal_text(DomainError("something_new", "a plain reason")) == "a plain reason"
    assert refusal_text(DomainError("deadline_in_past", "said another way")) == "said another way"
    assert refusal_text(ValueError("not a refusal")) == "not a refusal"

