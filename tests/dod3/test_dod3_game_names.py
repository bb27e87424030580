"""Issue 19 item 6: DoD III game names are checked like every other game name (a control character
in one made every mail of the game, the GM's answers among them, fail for good), on SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from app.db.models import Game
from app.mail.reading.messages import OutgoingMail, render_message
from tests.server.conftest import Harness
from tests.web.conftest import make_harness

GM = "dodgm@example.com"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Harness]:
    if request.param == "sqlite":
        yield make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    else:
        with request.getfixturevalue("postgres_template").copy() as url:
            h = make_harness(url)
            yield h
            h.judge.sessions.kw["bind"].dispose()


@pytest.mark.parametrize("name", ["ab\x01cd", "ab\x7fcd", "a" * 31, "1abc", "ab.cd", "x"])
def test_a_bad_dod3_game_name_is_refused_and_the_answer_goes_out(any_db: Harness, name: str) -> None:
    out = any_db.send(GM, f"DOD3 CREATE {name} secret1 PRESET 5")
    assert out.status == "done"
    reply = any_db.last_reply(GM)
    assert "a game name is 2 to 30 letters, digits, '-' or '_', starting with a letter" in reply
    with any_db.judge.sessions.begin() as db:
        assert db.scalar(select(func.count()).select_from(Game)) == 0
    for row in any_db.outbox():  # every answer can be sent
        render_message(OutgoingMail(to=row.recipients[0], subject=row.subject, text=row.body_text,
                                    message_id=row.message_id, in_reply_to=row.in_reply_to), "judge@judge.test")


def test_a_good_dod3_game_name_is_taken_lower_cased(any_db: Harness) -> None:
    any_db.send(GM, "DOD3 CREATE Gazette-2 secret1 PRESET 5")
    assert "Game 'gazette-2' (Days of Decision III) created" in any_db.last_reply(GM)
