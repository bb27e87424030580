"""Secrets on the dashboard (issue 18.10): every password position of a received mail masked on
its raw page, the mail log and the embedded mailbox, however the line is dressed; DoD III bid
amounts hidden everywhere until the reveal."""

from __future__ import annotations

import base64
import re
from email.message import EmailMessage
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Game, InboundMessage, OutboundMessage
from app.mail.runners.inbound import handle_raw
from app.services.mailout.display import hide_bids
from app.services.mailout.redact import mask_passwords
from app.web import create_app
from tests.dod3 import mailgame
from tests.web.conftest import (
    GM,
    GM_PASSWORD,
    KEEPER,
    World,
    gm_account,
    keeper_account,
    make_harness,
    played,
    signed_in,
)


@pytest.mark.parametrize(("line", "shown"), [
    ("SIGNON Edemo secret", "SIGNON Edemo ****"),
    ("signon master@demo secret", "signon master@demo ****"),
    ("\ufeffSIGNON Edemo secret", "\ufeffSIGNON Edemo ****"),
    ("\u200bSIGNON Edemo secret", "\u200bSIGNON Edemo ****"),
    ("SIGNON: Edemo secret", "SIGNON: Edemo ****"),
    ("* SIGNON Edemo secret", "* SIGNON Edemo ****"),
    ("Please SIGNON Edemo secret now", "Please SIGNON Edemo ****"),
    ("SIGNON secret", "SIGNON ****"),
    ("SIGN ON Edemo secret", "SIGN ON Edemo ****"),
    ("RESIGN secret", "RESIGN ****"),
    ("RESIGN Edemo secret", "RESIGN Edemo ****"),
    ("OBSERVE secret", "OBSERVE ****"),
    ("OBSERVE demo secret", "OBSERVE demo ****"),
    ("JOIN demo secret France", "JOIN demo **** France"),  # the preferences are no secret (issue 28.21)
    ("CREATE evil secret standard", "CREATE evil ****"),
    ("TAKEOVER italy@demo secret", "TAKEOVER italy@demo ****"),
    ("TAKE OVER italy@demo secret", "TAKE OVER italy@demo ****"),
    ("REPLACE Italy new@example.org secret", "REPLACE Italy new@example.org ****"),
    ("REPLACE Italy secret", "REPLACE Italy ****"),
    ("SET PASSWORD n3wsecret", "SET PASSWORD ****"),
    ("DOD3 CREATE gazette secret PRESET 4b", "DOD3 CREATE gazette ****"),
    ("DOD3 SEAT CW+FR ann@example.org secret", "DOD3 SEAT CW+FR ann@example.org ****"),
    ("BECOME Italy", "BECOME Italy"),
    ("A Par - Bur", "A Par - Bur"),
    ("Subject: SIGNON Fdemo secret", "Subject: SIGNON Fdemo ****"),
    ("    Your code: ABCDE-23456", "    Your code: *****-*****"),
])
def test_every_password_position_is_masked(line: str, shown: str) -> None:
    assert mask_passwords(line) == shown
    assert mask_passwords(f"A Par - Bur\n{line}\nA Mar - Spa") == f"A Par - Bur\n{shown}\nA Mar - Spa"


@pytest.mark.parametrize(("text", "shown"), [
    ("BID JA 6 OPTIONS 2", "BID JA ** OPTIONS **"),
    ("bid Soviet Union 3", "bid Soviet Union **"),
    ("Bid recorded: Japan 6 bid points for 2 options. It stays secret", "Bid recorded: Japan ** bid points for ** options. It stays secret"),
    ("Your bids this turn: IT 2; JA 6 for 2 options.", "Your bids this turn: (hidden until the bids are revealed)"),
    ("BID GE 0", "BID GE **"),
])
def test_bid_amounts_are_hidden(text: str, shown: str) -> None:
    assert hide_bids(text) == shown


@pytest.fixture
def fresh(sqlite_played_template: Path, tmp_path) -> World:  # type: ignore[no-untyped-def]
    harness = played(sqlite_played_template, tmp_path / "judge.sqlite3")
    inbox: list[bytes] = []
    return World(harness, create_app(harness.judge, keeper_address=KEEPER, inbox_writer=inbox.append), inbox)


SECRETS = {
    "plain": "SIGNON Falpha pwfrance\nA Par - Pic",
    "bom": "\ufeffSIGNON Falpha bomsecret1\n",
    "colon": "SIGNON: Falpha colonsecret2\n",
    "please": "Please SIGNON Falpha pleasesecret3\n",
    "one-word": "SIGNON onewordsecret4\nRESIGN resignsecret5\nOBSERVE observesecret6\nREPLACE Italy replacesecret7\n",
}


def test_raw_received_mail_shows_no_password(fresh: World) -> None:
    h = fresh.harness
    for name, body in SECRETS.items():  # each signed on first, so that the mail is one of alpha's
        h.send("france@example.com", "SIGNON Falpha pwfrance\n" + body, subject=f"orders {name}")
    encoded = EmailMessage()  # a body in base64, a subject in an encoded word: still masked
    encoded["From"], encoded["To"], encoded["Message-ID"] = "france@example.com", "judge@judge.test", "<b64@test>"
    encoded["Subject"] = "SIGNON Falpha subjectsecret8 \u00e9t\u00e9"
    encoded.set_content("SIGNON Falpha pwfrance\nSIGNON Falpha base64secret9\nA Par - Pic\n\u00e9t\u00e9\n",
                        cte="base64")
    handle_raw(h.judge, encoded.as_bytes())
    with fresh.judge.sessions() as db:
        alpha = db.scalar(select(Game.id).where(Game.name == "alpha"))
        mails = db.scalars(select(InboundMessage).where(InboundMessage.game_id == alpha)).all()
        ids = [m.id for m in mails]
        assert any(b"pwfrance" in m.raw for m in mails)  # stored as it came
        subjects = {m.subject for m in mails}
        assert {f"orders {name}" for name in SECRETS} <= subjects, subjects
    keeper_account(fresh)
    for client in (signed_in(fresh, GM, GM_PASSWORD), signed_in(fresh, KEEPER, "keeper-secret")):
        pages = [client.get(f"/games/alpha/mail/in/{i}") for i in ids]
        assert all(p.status_code == 200 for p in pages)
        text = "\n".join(p.text for p in pages)
        assert "SIGNON Falpha ****" in text and "A Par - Pic" in text
        for secret in ("pwfrance", "bomsecret1", "colonsecret2", "pleasesecret3", "onewordsecret4", "resignsecret5",
                       "observesecret6", "replacesecret7", "subjectsecret8", "base64secret9"):
            assert secret not in text, secret
        assert base64.b64encode(b"SIGNON Falpha pwfrance").decode()[:20] not in text
        assert "subjectsecret8" not in client.get("/games/alpha").text  # the mail log's subjects too


def test_dod3_bids_are_hidden_from_the_gm_until_the_reveal(tmp_path) -> None:  # type: ignore[no-untyped-def]
    h = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    mailgame.create(h)
    mailgame.gm(h, "DOD3 START")
    mailgame.play_first_turn_passing(h)
    mailgame.gm(h, "DOD3 PROCESS")
    assert mailgame.open_state(h)[0] == "MA1936A"
    gm_account(h, mailgame.GM, "masterpw", mailgame.GAME)
    inbox: list[bytes] = []
    world = World(h, create_app(h.judge, keeper_address=KEEPER, inbox_writer=inbox.append), inbox)
    keeper_account(world)
    soviet = mailgame.PLAYERS["Soviet"][0]
    mailgame.send(h, "Soviet", "BID RU 7")
    with h.judge.sessions() as db:
        bid_in = db.scalar(select(InboundMessage.id).where(InboundMessage.sender == soviet)
                           .order_by(InboundMessage.id.desc()).limit(1))
        ack = db.scalar(select(OutboundMessage.id).where(OutboundMessage.kind == "reply")
                        .order_by(OutboundMessage.id.desc()).limit(1))
    assert "Your bids this turn: RU 7." in h.last_reply(soviet)  # the player sees his own bid
    game = f"/games/{mailgame.GAME}"

    def views(client: TestClient) -> str:
        responses = [client.get(path) for path in (game, f"/api{game}", f"{game}/mail/in/{bid_in}",
                                                   f"{game}/mail/out/{ack}", f"/mailbox?address={soviet}")]
        assert [r.status_code for r in responses] == [200] * 5
        return "\n".join(r.text for r in responses)

    for client in (signed_in(world, mailgame.GM, "masterpw"), signed_in(world, KEEPER, "keeper-secret")):
        seen = views(client)
        assert "BID RU **" in seen and "pwsoviet" not in seen
        assert not re.search(r"RU 7|\b7 bid points", seen), re.findall(r".{40}(?:RU 7|7 bid points).{20}", seen)
    for player, bids in (("Axis", "BID GE 1\nBID IT 1\nBID JA 1"), ("France/Commonwealth", "BID CW 1\nBID FR 1"),
                         ("USA/China", "BID US 1\nBID CH 1")):
        mailgame.send(h, player, bids)
    assert mailgame.open_state(h)[0] != "MA1936A"  # every power bid: revealed
    revealed = views(signed_in(world, mailgame.GM, "masterpw"))
    assert "BID RU 7" in revealed

