"""One correction of a phase and of later phases, from the page and the API: one commit, one round
of mails (issue 21.14).  Game 'alpha' of tests/web/conftest.py with F1901M processed too."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import AuditEntry, Phase
from tests.server.conftest import POWERS
from tests.web.conftest import GM, GM_PASSWORD, World, csrf_of, signed_in


def _client(world: World) -> TestClient:
    with world.judge.sessions.begin() as db:
        processed = {p.code for p in db.scalars(select(Phase).where(Phase.status == "processed"))}
    if "F1901M" not in processed:
        world.harness.send(GM, f"SIGNON master@alpha {GM_PASSWORD}\nPROCESS F1901M")
    return signed_in(world, GM, GM_PASSWORD)


def test_the_api_refuses_later_orders_for_a_phase_not_replayed(world: World) -> None:
    client = _client(world)
    token = csrf_of(client, "/games/alpha")
    body = {"orders": {"GERMANY": ["A MUN H"]}, "later": {"S1905M": {"FRANCE": ["A BUR - PIC"]}}}
    response = client.post("/api/games/alpha/phases/S1901M/override/preview", json=body,
                           headers={"X-CSRF-Token": token})
    assert response.status_code == 400 and "S1905M is not a processed phase replayed" in response.text
    ok = client.post("/api/games/alpha/phases/S1901M/override/preview", headers={"X-CSRF-Token": token},
                     json={"orders": {"GERMANY": ["A MUN H"]}, "later": {"F1901M": {"FRANCE": ["A BUR - PIC"]}}})
    assert ok.status_code == 200, ok.text
    fall = next(r for r in ok.json()["replayed"] if r["phase"] == "F1901M")
    assert any(d["new"] and d["new"]["order"] == "A BUR - PIC" and d["new"]["result"] == "succeeds"
               for d in fall["orders"])


def test_the_page_corrects_a_phase_and_a_later_phase_in_one_commit(world: World) -> None:
    client = _client(world)
    token = csrf_of(client, "/games/alpha/phases/S1901M")
    assert 'name="later_orders"' in client.get("/games/alpha/phases/S1901M").text
    form = {"csrf_token": token, "orders_GERMANY": "A MUN H", "later_orders": "F1901M France: A BUR - PIC"}
    preview = client.post("/games/alpha/phases/S1901M/override", data={**form, "action": "preview"})
    assert preview.status_code == 200, preview.text[:2000]
    assert ">F1901M France: A BUR - PIC</textarea>" in preview.text  # kept for the commit
    assert "Replayed: F1901M, with your changed orders of FRANCE" in preview.text
    before = len(world.harness.outbox(kind="correction"))
    done = client.post("/games/alpha/phases/S1901M/override",
                       data={**form, "action": "commit", "reason": "Germany held; France's fall order as meant"})
    assert done.status_code == 303, done.text[:2000]
    mails = world.harness.outbox(kind="correction")[before:]
    assert len(mails) == len(POWERS) + 1  # one round of mails for both phases
    assert "In F1901M, France's orders are now: A BUR - PIC." in mails[0].body_text
    fall = client.get("/api/games/alpha/phases/F1901M").json()
    assert {o["order"]: o["result"] for o in fall["orders"]}["A BUR - PIC"] == "succeeds"
    with world.judge.sessions.begin() as db:
        audits = list(db.scalars(select(AuditEntry).where(AuditEntry.action == "override")))
        assert len(audits) == 1 and audits[0].detail["changes"]["later"] == {"F1901M": {"FRANCE": ["A BUR - PIC"]}}


def test_a_later_order_line_must_name_the_phase_and_the_power(world: World) -> None:
    client = _client(world)
    token = csrf_of(client, "/games/alpha/phases/S1901M")
    response = client.post("/games/alpha/phases/S1901M/override", data={
        "csrf_token": token, "orders_GERMANY": "A MUN - BUR", "later_orders": "A BUR - PIC", "action": "preview"})
    assert response.status_code == 400 and "W1901A Russia: BUILD A WAR" in response.text
