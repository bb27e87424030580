"""The adjudication review with its maps, a contest mailed by a player, and the GM's override on the
web: the preview beside the old adjudication, the commit (re-adjudicated, replayed, everyone mailed,
audited) and the contest answered.  The tests of this module build on one another, in order."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from sqlalchemy import select

from app.db.models import AuditEntry, Phase
from app.db.models_web import Contest
from app.services.errors import DomainError
from tests.server.conftest import player, signon
from tests.web.conftest import EVIL, GM, GM_PASSWORD, OTHER_GM, OTHER_PASSWORD, World, csrf_of, signed_in


def _gm(world: World) -> TestClient:
    return signed_in(world, GM, GM_PASSWORD)


def test_phase_page_shows_the_results_map_and_the_review_in_english(world: World) -> None:
    client = _gm(world)
    page = client.get("/games/alpha/phases/S1901M").text
    assert '<img src="/games/alpha/phases/S1901M/map.svg"' in page
    # France's A Par - Bur and Germany's A Mun - Bur bounce: the structured outcome, with strengths
    assert "Bounced: A PAR (1) vs A MUN (1), another move to the same place." in page  # 21.18: the units named
    assert '<span class="muted small">(bounced)</span>' in page and "(bounce)</span>" not in page  # 21.11: words
    assert "Moved to SPA." in page
    svg = client.get("/games/alpha/phases/S1901M/map.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg") and "class=\"order order-move" in svg.text  # the order arrows
    assert "default-src 'none'" in svg.headers["content-security-policy"]
    game = client.get("/games/alpha").text
    assert '<img src="/games/alpha/map.svg"' in game and "/games/alpha/phases/S1901M/map.svg" in game
    assert client.get("/games/alpha/map.svg").text.startswith("<svg")


def test_the_public_maps_show_published_phases_only(world: World) -> None:
    client = world.client()
    page = client.get("/public/games/alpha").text
    assert '<img src="/public/games/alpha/map.svg"' in page and "/public/games/alpha/phases/S1901M/map.svg" in page
    assert client.get("/public/games/alpha/map.svg").status_code == 200
    assert client.get("/public/games/alpha/phases/S1901M/map.svg").status_code == 200
    # the open phase's orders are not published: no map of them, for anyone
    assert client.get("/public/games/alpha/phases/F1901M/map.svg").status_code == 404
    assert client.get("/public/games/beta/map.svg").status_code == 200  # forming: the variant's start
    assert client.get("/public/games/nosuch/map.svg").status_code == 404


def test_a_contest_needs_a_processed_phase_and_a_text(world: World) -> None:
    h = world.harness
    h.send(player("FRANCE"), signon("FRANCE") + "CONTEST F1901M nothing happened yet")
    assert "Error:" in h.last_reply(player("FRANCE")) and "no processed phase F1901M" in h.last_reply(player("FRANCE"))
    h.send(player("FRANCE"), signon("FRANCE") + "CONTEST S1901M")
    assert "usage: CONTEST <phase>" in h.last_reply(player("FRANCE"))
    h.send(player("FRANCE"), "CONTEST S1901M not signed on")
    with world.judge.sessions.begin() as db:
        assert db.scalar(select(Contest)) is None


def test_a_player_contests_by_mail_and_the_gm_sees_it(world: World) -> None:
    h = world.harness
    outcome = h.send(player("FRANCE"), signon("FRANCE") + f"CONTEST S1901M I meant A Par - Pic {EVIL}")
    assert outcome.status == "done"
    assert "Your contest of S1901M was sent to the GM" in h.last_reply(player("FRANCE"))
    told = h.outbox(to=GM, kind="contest")
    assert told and "France" in told[-1].body_text and "I meant A Par - Pic" in told[-1].body_text
    client = _gm(world)
    overview = client.get("/").text
    assert "1 contested phase" in overview
    api = {g["name"]: g for g in client.get("/api/games").json()}["alpha"]
    assert "contested" in {a["code"] for a in api["attention"]}
    for path in ("/games/alpha", "/games/alpha/phases/S1901M"):
        text = client.get(path).text
        assert str(escape(EVIL)) in text and EVIL not in text, path  # the player's text is escaped
        assert "I meant A Par - Pic" in text


def test_process_now_from_the_dashboard(world: World) -> None:
    client = _gm(world)
    token = csrf_of(client, "/games/alpha")
    response = client.post("/games/alpha/process", data={"csrf_token": token, "phase": "F1901M", "confirm": "yes"})
    assert response.status_code == 303 and response.headers["location"].startswith("/games/alpha?done=processed")
    with world.judge.sessions.begin() as db:
        codes = [p.code for p in db.scalars(select(Phase).where(Phase.status == "processed").order_by(Phase.seq))]
    assert "F1901M" in codes  # now S1901M has a later phase to replay


def _override_form(client: TestClient) -> dict[str, str]:
    page = client.get("/games/alpha/phases/S1901M").text
    form = {m.group(1): m.group(2) for m in re.finditer(r'name="(orders_[A-Z]+)"[^>]*>([^<]*)</textarea>', page)}
    assert form["orders_FRANCE"].splitlines() == ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"] or \
        "A PAR - BUR" in form["orders_FRANCE"].upper(), form
    contest = re.search(r'<option value="(\d+)" selected>contest', page)
    assert contest, "the open contest is offered"
    return {**{k: str(escape(v)).replace("&amp;", "&") for k, v in form.items()}, "contest": contest.group(1),
            "csrf_token": csrf_of(client, "/games/alpha/phases/S1901M")}


def test_override_preview_shows_old_and_new_side_by_side(world: World) -> None:
    client = _gm(world)
    form = _override_form(client)
    form["orders_GERMANY"] = "A MUN - RUH\nF KIE - DEN\nA BER - KIE"  # Germany did not go to Burgundy after all
    response = client.post("/games/alpha/phases/S1901M/override", data={**form, "action": "preview"})
    assert response.status_code == 200, response.text[:2000]
    text = response.text
    assert '<img src="/games/alpha/phases/S1901M/map.svg"' in text  # the old map
    assert 'src="data:image/svg+xml;base64,' in text  # the new one
    diff = text.split('id="order-diff"', 1)[1].split("</table>", 1)[0]
    assert "A PAR - BUR</strong> · fails" in diff and "A PAR - BUR</strong> · succeeds" in diff
    assert "Replayed: F1901M" in text
    # issue 21.8: a replayed phase shows which of its orders change, not a count only
    replayed = text.split('id="order-diff-F1901M"', 1)[1].split("</table>", 1)[0]
    assert re.search(r"Orders of F1901M whose outcome changes \((\d+) of \d+\)", replayed)
    assert replayed.count('<tr class="changed">') == int(re.findall(r"changes \((\d+) of", replayed)[0]) > 0
    assert 'value="commit"' in text  # the commit button
    with world.judge.sessions.begin() as db:  # nothing written by a preview
        assert db.scalar(select(AuditEntry).where(AuditEntry.action == "override")) is None


def test_override_without_a_reason_is_refused(world: World) -> None:
    client = _gm(world)
    form = _override_form(client)
    form["orders_GERMANY"] = "A MUN - RUH"
    response = client.post("/games/alpha/phases/S1901M/override", data={**form, "action": "commit", "reason": " "})
    assert response.status_code == 400 and "say why the phase is corrected" in response.text


def test_a_refusal_after_the_override_is_written_undoes_all_of_it(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27.6: the form's route catches its refusals inside a savepoint: one that comes after the
    correction was written (here the contest's answer) leaves nothing of it, not half a correction."""
    import app.web.routes_override as routes

    def refused(*args: object, **kwargs: object) -> None:
        raise DomainError("closed", "the contest was already answered")

    monkeypatch.setattr(routes, "answer_contest", refused)
    h = world.harness
    client = _gm(world)
    form = _override_form(client)
    form["orders_GERMANY"] = "A MUN - RUH\nF KIE - DEN\nA BER - KIE"
    before = len(h.outbox(kind="correction"))
    with world.judge.sessions.begin() as db:
        results = dict(db.scalars(select(Phase).where(Phase.code == "S1901M", Phase.status == "processed")).one().results
                       or {})
    response = client.post("/games/alpha/phases/S1901M/override",
                           data={**form, "action": "commit", "reason": "misread"})
    assert response.status_code == 400 and "the contest was already answered" in response.text
    assert h.outbox(kind="correction")[before:] == []
    with world.judge.sessions.begin() as db:
        assert db.scalar(select(AuditEntry).where(AuditEntry.action == "override")) is None
        assert db.scalars(select(Phase).where(Phase.code == "S1901M", Phase.status == "processed")).one().results \
            == results


def test_override_commit_replays_mails_everyone_audits_and_answers_the_contest(world: World) -> None:
    h = world.harness
    client = _gm(world)
    form = _override_form(client)
    form["orders_GERMANY"] = "A MUN - RUH\nF KIE - DEN\nA BER - KIE"
    before = len(h.outbox(kind="correction"))
    reason = "Germany's order was A Mun - Ruh, misread by the judge <b>sorry</b>"
    response = client.post("/games/alpha/phases/S1901M/override",
                           data={**form, "action": "commit", "reason": reason})
    assert response.status_code == 303, response.text[:2000]
    assert response.headers["location"].startswith("/games/alpha/phases/S1901M?corrected=")
    corrections = h.outbox(kind="correction")[before:]
    recipients = {r.recipients[0] for r in corrections}
    assert player("FRANCE") in recipients and player("TURKEY") in recipients and GM in recipients
    assert all(reason in r.body_text for r in corrections)
    phase = client.get("/api/games/alpha/phases/S1901M").json()
    assert {o["order"]: o["result"] for o in phase["orders"]}["A PAR - BUR"] == "succeeds"
    replayed = client.get("/api/games/alpha/phases/F1901M").json()
    assert "A BUR" in replayed["units_after"]["FRANCE"]  # the later phase was replayed from the new position
    with world.judge.sessions.begin() as db:
        audit = db.scalar(select(AuditEntry).where(AuditEntry.action == "override"))
        assert audit is not None and audit.actor == GM and audit.detail["reason"] == reason
        assert audit.detail["replayed"] == ["F1901M"]
        contest = db.scalar(select(Contest))
        assert contest is not None and contest.status == "upheld" and contest.answer == reason
    answer = h.outbox(to=player("FRANCE"), kind="contest")
    assert answer and "upheld" in answer[-1].subject and reason in answer[-1].body_text
    page = client.get("/games/alpha/phases/S1901M").text
    assert "upheld" in page and str(escape(reason)) in page
    assert client.get("/").text.count("contested phase") == 0


def test_a_corrected_phase_shows_its_history_and_the_audit_log_is_for_its_gm(world: World) -> None:
    """Issue 21.5 (after the commit above): who, when, the reason, the results as first mailed
    beside the correction mail; the audit log as a page and in the API, for the game's GM only."""
    client = _gm(world)
    reason = str(escape("Germany's order was A Mun - Ruh, misread by the judge <b>sorry</b>"))
    page = client.get("/games/alpha/phases/S1901M").text
    assert re.search(r"adjudicated [^<]+ · <strong>corrected</strong> [^<]+ by gm@example.com", page), page[:3000]
    history = page.split('id="corrections"', 1)[1].split("</section>", 1)[0]
    assert reason in history and "gm@example.com" in history
    first = history.split("Results as first mailed</h4>", 1)[1].split("</div>", 1)[0]
    mail = history.split("The correction mail</h4>", 1)[1].split("</div>", 1)[0]
    assert "France: Army Paris -&gt; Burgundy.  (*bounce*)" in first  # as the players got it, before
    assert "Diplomacy correction: game &#39;alpha&#39;, S1901M." in mail and reason in mail
    now = page.split('id="results"', 1)[1]
    assert "<h2>Results now</h2>" in now and "the players were not mailed this text" in now
    assert "France: Army Paris -&gt; Burgundy.\n" in now
    later = client.get("/games/alpha/phases/F1901M").text  # replayed: its history says by which correction
    assert "Changed by the correction of S1901M" in later.split('id="corrections"', 1)[1]
    game = client.get("/games/alpha").text.split('<section id="corrections">', 1)[1].split("</section>", 1)[0]
    assert "S1901M corrected" in game and reason in game and 'href="/games/alpha/audit"' in game
    audit = client.get("/games/alpha/audit")
    assert audit.status_code == 200 and "override" in audit.text and reason in audit.text
    api = client.get("/api/games/alpha/audit")
    assert api.status_code == 200
    override = next(a for a in api.json() if a["action"] == "override")
    assert override["by"] == GM and override["phase"] == "S1901M" and override["detail"]["correction_mail"]
    assert "(*bounce*)" in override["detail"]["results_as_mailed"]["S1901M"]
    other = signed_in(world, OTHER_GM, OTHER_PASSWORD)
    assert other.get("/api/games/alpha/audit").status_code in (403, 404)
    assert other.get("/games/alpha/audit", follow_redirects=False).status_code in (303, 403, 404)
    assert world.client().get("/api/games/alpha/audit").status_code == 401


def test_the_gm_can_reject_a_contest_and_the_player_is_told(world: World) -> None:
    h = world.harness
    h.send(player("ITALY"), signon("ITALY") + "CONTEST S1901M I want a recount")
    client = _gm(world)
    with world.judge.sessions.begin() as db:
        contest = db.scalar(select(Contest).where(Contest.power == "ITALY"))
        assert contest is not None
        contest_id = contest.id
    token = csrf_of(client, "/games/alpha/phases/S1901M")
    assert client.post(f"/games/alpha/contests/{contest_id}/answer",
                       data={"verdict": "rejected", "answer": "The adjudication stands."}).status_code == 403  # CSRF
    response = client.post(f"/games/alpha/contests/{contest_id}/answer",
                           data={"csrf_token": token, "verdict": "rejected", "answer": "The adjudication stands."})
    assert response.status_code == 303
    mail = h.outbox(to=player("ITALY"), kind="contest")[-1]
    assert "rejected" in mail.subject and "The adjudication stands." in mail.body_text
    again = client.post(f"/games/alpha/contests/{contest_id}/answer",
                        data={"csrf_token": token, "verdict": "answered", "answer": "twice"})
    assert again.status_code == 400 and "already answered" in again.text
