"""Issue 19 items 1-4 as deployed: `judge serve` on IMAP + PostgreSQL with 50 poison mails waiting
(25 Message-IDs of 450 characters, 25 subjects that decode to a lone surrogate) ahead of 3 players'
mails: everyone is answered, once, and /healthz shows the three loops alive."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from email.message import EmailMessage

from tests.e2e.conftest import (
    Mailbox,
    ServerProcess,
    free_port,
    send_mail,
    server_env,
    unique,
    wait_until,
)
from tests.e2e.test_faults import append_to_inbox


def poison(sender: str, to: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"] = sender, to
    msg.set_content("HELP\n")
    if n % 2:
        head = f"Subject: =?utf-7?q?+2AA-?=\nMessage-ID: <surrogate{n}@players.test>\n"
    else:
        local = f"long{n}." + "x" * 450
        head = f"Subject: orders {n}\nMessage-ID: <{local[:420]}@players.test>\n"
    return head.encode() + msg.as_bytes()


def healthz(port: str) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_fifty_poison_mails_hold_nobody_and_the_loops_stay_healthy(
        pg_url: str, mail_services: None, server_factory: Callable[..., ServerProcess]) -> None:
    judge_address = unique("judge")
    poisoner = Mailbox(unique("poisoner"))
    for n in range(50):
        append_to_inbox(judge_address, poison(poisoner.address, judge_address, n))
    # The poisoner is a stranger: past 5 answers an hour it would get none (issue 18.3, tested on its
    # own), and all strangers together past 30 an hour (issue 29.5, tested on its own); here every
    # poison mail must be answered once, so the strangers' budget and cap are lifted.
    env = server_env(pg_url, judge_address, JUDGE_STRANGER_BUDGET="100", JUDGE_STRANGER_CAP="1000")
    server_factory(env).start()
    players = [Mailbox(unique(f"player{n}")) for n in range(3)]
    for player in players:
        send_mail(player.address, judge_address, "HELP\n", subject="help please")
    for player in players:
        player.wait_for(lambda m: True, timeout=120, what="the answer to a player behind 50 poison mails")
    wait_until(lambda: len(poisoner.fetch_all()) == 50, timeout=120, what="an answer to each poison mail")
    status, body = healthz(env["JUDGE_WEB_PORT"])
    assert status == 200 and body["status"] == "ok", body
    loops = body["loops"]
    assert isinstance(loops, dict) and sorted(loops) == ["drain", "poller", "scheduler"]
    assert all(loop["healthy"] and loop["last_ok"] for loop in loops.values()), loops
    assert len(poisoner.fetch_all()) == 50 and all(len(p.fetch_all()) == 1 for p in players)


def test_a_poller_that_cannot_read_mail_makes_healthz_unhealthy(
        pg_url: str, server_factory: Callable[..., ServerProcess]) -> None:
    """No IMAP server where the judge looks: the poller fails round after round (logged, counted,
    retried) and /healthz answers 503 for it, while the dashboard and the other loops are fine."""
    env = server_env(pg_url, unique("judge"), JUDGE_IMAP_PORT=str(free_port()), JUDGE_HEALTH_STALE_SECONDS="3")
    server_factory(env).start()
    seen: list[tuple[int, dict[str, object]]] = []

    def unhealthy() -> bool:
        try:
            seen.append(healthz(env["JUDGE_WEB_PORT"]))
        except OSError:
            return False  # not listening yet
        code, body = seen[-1]
        loops = body.get("loops")
        return code == 503 and isinstance(loops, dict) and loops["poller"]["crashes"] >= 1

    wait_until(unhealthy, timeout=120, what="/healthz to turn unhealthy, with the poller's failure counted")
    status, body = seen[-1]
    loops = body["loops"]
    assert isinstance(loops, dict) and body["status"] == "unhealthy"
    assert not loops["poller"]["healthy"] and loops["poller"]["crashes"] >= 1
    assert loops["poller"]["last_error"] == "InboxUnavailable" and loops["poller"]["last_ok"] is None
    assert loops["drain"]["healthy"] and loops["scheduler"]["healthy"]
