"""The server killed at many points during mail handling and turn processing (injected crash
points: JUDGE_CRASH_AT makes the process die there, as kill -9 would).  After a restart the
game is either fully before or fully after the turn, and nothing is lost or doubled."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from sqlalchemy import select

from app.db import queries
from app.db.models import InboundMessage, OutboundMessage, Phase
from app.mail.maildir import deliver, mailbox_for
from app.mail.runners.inbound import handle_raw
from tests.e2e.conftest import (
    ServerProcess,
    create_started_game,
    local_judge,
    make_due,
    server_env,
    wait_until,
)

CRASH_POINTS = [
    "inbound:stored", "inbound:parsed", "orders:stored", "inbound:commands_run", "inbound:flushed",
    "inbound:reply_queued", "poll:before_flag",
    "tick:before_lock", "tick:locked", "tick:policy_applied",
    "turn:start", "turn:claimed", "turn:phase_stored",
    "turn:seats_updated", "turn:press_published", "turn:rendered", "turn:next_phase_opened",
    "turn:results_queued", "turn:done",
    "drain:before_send", "drain:after_send",
    # mid-batch: mails the SMTP server has accepted, the batch's outcome not yet written (issue 26.2)
    "drain:before_send@5", "drain:after_send@4",
]
RESENT_WITH_THE_SAME_ID = {"drain:after_send", "drain:before_send@5", "drain:after_send@4"}


def _mail(sender: str, to: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, "orders"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(body)
    return msg.as_bytes()


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_killed_then_restarted_is_consistent(point: str, pg_url: str, tmp_path: Path,
                                             server_factory: Callable[..., ServerProcess]) -> None:
    judge_address = "judge@judge.test"
    judge = local_judge(pg_url, judge_address)
    name = f"k{secrets.token_hex(3)}"
    players = create_started_game(judge, name)
    # France's orders arrive before the deadline (handled in this process).
    assert handle_raw(judge, _mail(players["FRANCE"], judge_address, f"SIGNON F{name} pwfrance\nA Par-Bur\n"
                                   "PRESS TO GERMANY\nhello\nENDPRESS\n")).status == "done"
    make_due(judge, name)
    # Germany's mail waits in the judge's inbox.
    deliver(tmp_path / "inbox", _mail(players["GERMANY"], judge_address, f"SIGNON G{name} pwgermany\nA Ber H\n"))
    env = server_env(pg_url, judge_address, mode="embedded", tmp=tmp_path, JUDGE_OUTBOX_LEASE_SECONDS="1")
    crashed = server_factory({**env, "JUDGE_CRASH_AT": point}, name="crashing").start()
    assert crashed.wait(timeout=150) == 77, f"crash point {point} was not reached"  # start-up and a tick, on a busy machine

    server = server_factory(env, name="restarted").start()

    def settled() -> bool:
        with judge.sessions.begin() as db:
            game = queries.game_by_name(db, name)
            inbound = list(db.scalars(select(InboundMessage)))
            pending = db.scalars(select(OutboundMessage).where(OutboundMessage.status != "sent")).all()
            return bool(game and game.phase == "F1901M" and all(r.status == "done" for r in inbound)
                        and len(inbound) == 2 and not pending)

    wait_until(settled, timeout=60, what=f"the restarted server to settle after {point}")
    server.stop()

    with judge.sessions.begin() as db:
        game = queries.game_by_name(db, name)
        assert game is not None
        phases = list(db.scalars(select(Phase).where(Phase.game_id == game.id).order_by(Phase.seq)))
        assert [(p.code, p.status) for p in phases] == [("S1901M", "processed"), ("F1901M", "open")]
        results = list(db.scalars(select(OutboundMessage).where(OutboundMessage.kind == "results")))
        assert sorted(r.recipients[0] for r in results) == sorted([*players.values(), f"gm-{name}@judge.test"])
        assert "France: Army Paris -> Burgundy." in phases[0].results_text
        replies = [r for r in db.scalars(select(OutboundMessage).where(OutboundMessage.kind == "reply"))
                   if r.recipients[0] == players["GERMANY"]]
        assert len(replies) == 1
        inbound = list(db.scalars(select(InboundMessage)))
        assert len(inbound) == 2 and all(r.status == "done" for r in inbound)
    for power, address in players.items():
        box = mailbox_for(tmp_path / "outbox", address)
        files = [p for sub in ("new", "cur") if (box / sub).is_dir() for p in (box / sub).iterdir()]
        result_ids = []
        for path in files:
            data = path.read_bytes()
            if b"Subject: Diplomacy results" in data:
                result_ids.append(next(line for line in data.splitlines() if line.lower().startswith(b"message-id:")))
        if point in RESENT_WITH_THE_SAME_ID:
            # The one window no outbox can close: sent, then killed before marking it sent (a
            # batch's outcome is written once the batch is through: every mail of it sent so far).
            # The mail may go twice, with the same Message-ID, so that mail clients drop the copy.
            assert 1 <= len(result_ids) <= 2 and len(set(result_ids)) == 1, (power, result_ids)
        else:
            assert len(result_ids) == 1, (power, point, result_ids)
