"""Administration from the dashboard: create a game (linked to the GM's account), pause and resume,
set the deadline, replace a player, resend a mail, set a quarantined mail aside; the embedded
mailbox writes a player's mail to the judge and reads what the judge sent."""

from __future__ import annotations

from email import message_from_bytes
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import AuditEntry, Game, InboundMessage, Player
from app.web import create_app
from tests.server.conftest import player
from tests.web.conftest import (
    GM,
    GM_PASSWORD,
    KEEPER,
    World,
    csrf_of,
    keeper_account,
    played,
    proven_by_code,
    signed_in,
)


@pytest.fixture
def fresh(sqlite_played_template: Path, tmp_path) -> World:  # type: ignore[no-untyped-def]
    harness = played(sqlite_played_template, tmp_path / "judge.sqlite3")
    inbox: list[bytes] = []
    return World(harness, create_app(harness.judge, keeper_address=KEEPER, inbox_writer=inbox.append), inbox)


def _post(client: TestClient, path: str, data: dict[str, str], page: str = "/games/alpha") -> object:
    return client.post(path, data={**data, "csrf_token": csrf_of(client, page)})


def test_create_a_game_with_options_and_a_rule(fresh: World) -> None:
    client = signed_in(fresh, GM, GM_PASSWORD)
    assert "Create a game" in client.get("/").text
    form = client.get("/games/new").text
    assert 'name="variant"' in form and "smallworld" in form and 'name="nmr"' in form
    response = _post(client, "/games/new", {"name": "gamma", "password": "gammapw", "variant": "smallworld",
                                            "press": "grey", "movement_next_hours": "72", "timezone": "Europe/Paris",
                                            "nmr": "hold", "rule_option": "victory_groups", "rule_value": "on"},
                     page="/games/new")
    assert response.status_code == 303, response.text  # type: ignore[attr-defined]
    assert response.headers["location"] == "/games/gamma?done=created"  # type: ignore[attr-defined]
    with fresh.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "gamma"))
        assert game is not None and game.variant == "smallworld" and game.press == "grey"
        assert game.master_email == GM and game.status == "forming"
        assert game.settings["timezone"] == "Europe/Paris" and game.settings["nmr"] == "hold"
        assert game.settings["timing"]["movement"]["next_hours"] == 72.0
        assert game.settings["rules"] == {"victory_groups": True}
    assert client.get("/games/gamma").status_code == 200  # linked to the account at once
    # the master password works by mail as well
    assert fresh.harness.send(GM, "SIGNON master@gamma gammapw\nSIGNOFF").status == "done"


@pytest.mark.parametrize("data, message", [
    ({"name": "alpha", "password": "x"}, "already exists"),
    ({"name": "9bad", "password": "x"}, "a game name is"),
    ({"name": "delta", "password": ""}, "master password"),
    ({"name": "delta", "password": "x", "variant": "nosuch"}, "unknown variant"),
    ({"name": "delta", "password": "x", "timezone": "Mars/Olympus"}, "Unknown time zone"),
    ({"name": "delta", "password": "x", "movement_next_hours": "soon"}, "hours are a number"),
    ({"name": "delta", "password": "x", "movement_next_hours": "721"}, "hours to the deadline are 1 to 336"),
])
def test_create_a_game_refuses_bad_input_clearly(fresh: World, data: dict[str, str], message: str) -> None:
    client = signed_in(fresh, GM, GM_PASSWORD)
    response = _post(client, "/games/new", data, page="/games/new")
    assert response.status_code == 400 and message in response.text  # type: ignore[attr-defined]
    with fresh.judge.sessions.begin() as db:
        assert db.scalar(select(Game).where(Game.name == "delta")) is None


def test_a_bad_rule_option_creates_nothing(fresh: World) -> None:
    client = signed_in(fresh, GM, GM_PASSWORD)
    response = _post(client, "/games/new", {"name": "delta", "password": "x", "rule_option": "no_such_rule"},
                     page="/games/new")
    assert response.status_code == 400 and "rule not changed" in response.text  # type: ignore[attr-defined]
    with fresh.judge.sessions.begin() as db:
        assert db.scalar(select(Game).where(Game.name == "delta")) is None  # rolled back with the request


def test_pause_resume_deadline_and_replace(fresh: World) -> None:
    client = signed_in(fresh, GM, GM_PASSWORD)
    assert _post(client, "/games/alpha/pause", {}).status_code == 303  # type: ignore[attr-defined]
    page = client.get("/games/alpha").text
    assert "status-paused" in page and "Resume the game" in page
    assert _post(client, "/games/alpha/resume", {}).status_code == 303  # type: ignore[attr-defined]
    assert _post(client, "/games/alpha/deadline", {"when": "+72h"}).status_code == 303  # type: ignore[attr-defined]
    bad = _post(client, "/games/alpha/deadline", {"when": "whenever"})
    assert bad.status_code == 400 and "2026-12-01 20:00" in bad.text  # type: ignore[attr-defined]
    replaced = _post(client, "/games/alpha/replace", {"power": "ITALY", "address": "new-italy@example.com",
                                                      "password": "newpw"})
    assert replaced.status_code == 303  # type: ignore[attr-defined]
    assert "waiting+for+the+new+address+to+confirm" in replaced.headers["location"]  # type: ignore[attr-defined]
    with fresh.judge.sessions.begin() as db:  # issue 29: the seat waits for the new address's confirmation
        seat = db.scalar(select(Player).where(Player.power == "ITALY"))
        assert seat is not None and seat.email == player("ITALY")
    asked = fresh.harness.outbox(to="new-italy@example.com")
    assert [m.kind for m in asked] == ["confirmation"], [m.kind for m in asked]
    assert fresh.harness.confirm_targets() == 1
    with fresh.judge.sessions.begin() as db:
        actions = [a.action for a in db.scalars(select(AuditEntry).order_by(AuditEntry.id))]
        seat = db.scalar(select(Player).where(Player.power == "ITALY"))
        assert seat is not None and seat.email == "new-italy@example.com"
    assert {"pause", "resume", "set_deadline"} <= set(actions)


def test_resend_a_mail_and_set_a_quarantined_mail_aside(fresh: World) -> None:
    h = fresh.harness
    client = signed_in(fresh, GM, GM_PASSWORD)
    results = [m for m in h.outbox(to=player("FRANCE")) if "S1901M" in m.subject and m.kind != "reply"]
    assert results, [m.subject for m in h.outbox(to=player("FRANCE"))]
    before = len(h.outbox(to=player("FRANCE")))
    assert _post(client, f"/games/alpha/mail/out/{results[0].id}/resend", {}).status_code == 303  # type: ignore[attr-defined]
    again = h.outbox(to=player("FRANCE"))
    assert len(again) == before + 1 and again[-1].subject == results[0].subject
    assert results[0].reply_to and again[-1].reply_to == results[0].reply_to  # issue 21.11: not emptied
    assert again[-1].map_id == results[0].map_id
    with fresh.judge.sessions.begin() as db:
        mail = db.scalar(select(InboundMessage).where(InboundMessage.game_id.is_not(None)))
        assert mail is not None
        mail.status, mail_id = "quarantined", mail.id
    assert '1 quarantined mail to deal with: <a href="?mail_status=quarantined#mail">' in client.get("/games/alpha").text
    assert "dealt with" in client.get("/games/alpha?mail_status=quarantined").text  # the log is paged (issue 21.17)
    assert _post(client, f"/games/alpha/mail/in/{mail_id}/resolve", {}).status_code == 303  # type: ignore[attr-defined]
    with fresh.judge.sessions.begin() as db:
        assert db.get(InboundMessage, mail_id).status == "ignored"  # type: ignore[union-attr]
    assert _post(client, f"/games/alpha/mail/in/{mail_id}/resolve", {}).status_code == 400  # type: ignore[attr-defined]


def test_the_embedded_mailbox_writes_to_the_judge_and_reads_its_answers(fresh: World) -> None:
    """A GM writes from their own address only (issue 18.11); the judgekeeper from any."""
    client = signed_in(fresh, GM, GM_PASSWORD)
    as_player = _post(client, "/mailbox/send", {"from": player("FRANCE"), "subject": "orders",
                                                "body": "SIGNON Falpha pwfrance\nA Par - Pic"}, page="/mailbox")
    assert as_player.status_code == 403 and fresh.inbox == []  # type: ignore[attr-defined]
    own = _post(client, "/mailbox/send", {"from": GM.upper(), "body": "LIST alpha"}, page="/mailbox")
    assert own.status_code == 303 and len(fresh.inbox) == 1  # type: ignore[attr-defined]
    keeper_account(fresh)
    keeper = signed_in(fresh, KEEPER, "keeper-secret")
    response = _post(keeper, "/mailbox/send", {"from": player("FRANCE"), "subject": "orders",
                                               "body": "SIGNON Falpha pwfrance\nA Par - Pic"}, page="/mailbox")
    assert response.status_code == 303  # type: ignore[attr-defined]
    assert len(fresh.inbox) == 2
    sent = message_from_bytes(fresh.inbox[1])
    assert sent["From"] == player("FRANCE") and sent["To"] == "judge@judge.test"
    assert "A Par - Pic" in sent.get_payload()
    fresh.harness.send(player("FRANCE"), "SIGNON Falpha pwfrance\nA Par - Pic")  # as the poller would
    page = client.get("/mailbox", params={"address": player("FRANCE")}).text
    assert "A Par - Pic" in page or "A PAR - PIC" in page
    assert "pwfrance" not in page  # the echo of the sign-on, masked
    bad = _post(client, "/mailbox/send", {"from": "x\r\nBcc: a@b", "body": "hi"}, page="/mailbox")
    assert bad.status_code == 400  # type: ignore[attr-defined]


def test_the_mailbox_exists_only_in_embedded_mode(fresh: World) -> None:
    app = create_app(fresh.judge, keeper_address=KEEPER)  # no inbox writer: not embedded
    client = TestClient(app, follow_redirects=False)
    client.cookies.update(signed_in(fresh, GM, GM_PASSWORD).cookies)
    assert client.get("/mailbox").status_code == 404
    assert "Mailbox" not in client.get("/").text


def test_invite_a_player_by_mail(fresh: World) -> None:
    """Invitations (issue 18.8): only to addresses the judge may write to, once a day per address,
    ten a day per game, and a note only from an account that proved its address by a code."""
    h = fresh.harness
    client = signed_in(fresh, GM, GM_PASSWORD)  # made by the keeper: not proven by a code
    page = client.get("/games/alpha").text
    assert "Invite a player" in page and 'name="note"' not in page
    response = _post(client, "/games/alpha/invite", {"address": "newcomer@example.com", "note": "Buy pills <b>"})
    assert response.status_code == 400 and "proven" in response.text  # type: ignore[attr-defined]
    assert h.outbox(kind="invite") == []
    response = _post(client, "/games/alpha/invite", {"address": "newcomer@example.com"})
    assert response.status_code == 303  # type: ignore[attr-defined]
    mail = h.outbox(to="newcomer@example.com", kind="invite")[-1]
    assert mail.subject == "Diplomacy invitation to alpha"
    assert "TAKEOVER <power>@alpha <password>" in mail.body_text and "adds" not in mail.body_text
    again = _post(client, "/games/alpha/invite", {"address": "newcomer@example.com"})
    assert again.status_code == 400 and "within the last day" in again.text  # type: ignore[attr-defined]
    for bad_address in ("a@b.c, d@e.f", "judge@judge.test", "judge+abc@judge.test", "postmaster@example.com",
                        "x@localhost", "nobody"):
        bad = _post(client, "/games/alpha/invite", {"address": bad_address})
        assert bad.status_code == 400, bad_address  # type: ignore[attr-defined]
    for n in range(9):
        assert _post(client, "/games/alpha/invite", {"address": f"p{n}@example.com"}).status_code == 303  # type: ignore[attr-defined]
    over = _post(client, "/games/alpha/invite", {"address": "p10@example.com"})
    assert over.status_code == 400 and "10 invitations" in over.text  # type: ignore[attr-defined]
    assert len(h.outbox(kind="invite")) == 10
    h.clock.advance(days=1, minutes=1)
    proven = proven_by_code(fresh, GM)
    assert 'name="note"' in proven.get("/games/alpha").text
    response = _post(proven, "/games/alpha/invite", {"address": "p10@example.com", "note": "Italy is vacant <b>"})
    assert response.status_code == 303  # type: ignore[attr-defined]
    assert "Italy is vacant <b>" in h.outbox(to="p10@example.com", kind="invite")[-1].body_text


def test_the_override_over_the_json_api(fresh: World) -> None:
    client = signed_in(fresh, GM, GM_PASSWORD)
    headers = {"X-CSRF-Token": csrf_of(client, "/")}
    url = "/api/games/alpha/phases/S1901M/override"
    body = {"orders": {"GERMANY": ["A MUN - RUH"]}}
    assert client.post(f"{url}/preview", json=body).status_code == 403  # no CSRF token
    assert client.post(f"{url}/preview", json={"rulings": [{"location": "PAR", "ruling": "sideways"}]},
                       headers=headers).status_code == 422
    preview = client.post(f"{url}/preview", json=body, headers=headers)
    assert preview.status_code == 200, preview.text
    changed = {(d["unit"], d["new"]["result"]) for d in preview.json()["orders"] if d["old"] != d["new"]}
    assert ("A PAR", "succeeds") in changed and ("A MUN", "succeeds") in changed
    assert client.post(f"{url}/commit", json=body, headers=headers).status_code == 400  # no reason
    done = client.post(f"{url}/commit", json={**body, "reason": "misread"}, headers=headers)
    assert done.status_code == 200 and done.json()["mails"] >= 8
    results = {o["order"]: o["result"] for o in client.get("/api/games/alpha/phases/S1901M").json()["orders"]}
    assert results["A PAR - BUR"] == "succeeds" and results["A MUN - RUH"] == "succeeds"


def test_a_deadline_in_the_past_is_refused_and_nobody_is_mailed(fresh: World) -> None:
    """Issue 21, item 4: 2020-01-01 10:00 (or +0m) was accepted, and the next tick mailed every
    player that their orders were late."""
    client = signed_in(fresh, GM, GM_PASSWORD)
    before = len(fresh.harness.outbox())
    for when in ("2020-01-01 10:00", "+0m"):
        response = _post(client, "/games/alpha/deadline", {"when": when})
        assert response.status_code == 400, when  # type: ignore[attr-defined]
        assert "is not in the future" in response.text  # type: ignore[attr-defined]
        # the web's own words (issue 27.2): the Process now button, never the mail's "use PROCESS"
        assert "Process now</button>" in response.text and "PROCESS" not in response.text  # type: ignore[attr-defined]
    assert len(fresh.harness.outbox()) == before


def test_the_keeper_sees_the_held_mail_and_a_gm_does_not(fresh: World) -> None:
    """Issue 29 item 4: a mail an answer budget held back is listed for the judgekeeper."""
    for number in range(fresh.judge.settings.stranger_budget + 1):
        fresh.harness.send("pest@third.test", "HELP", subject=f"held subject {number}", confirm=False)
    keeper_account(fresh)
    page = signed_in(fresh, KEEPER, "keeper-secret").get("/").text
    assert "Held mail" in page and "pest@third.test" in page and "JUDGE_STRANGER_BUDGET" in page
    assert f"held subject {fresh.judge.settings.stranger_budget}" in page
    assert "pest@third.test" not in signed_in(fresh, GM, GM_PASSWORD).get("/").text
