"""Maps in mail: every results mail carries the map of its phase (a PNG attachment in the judge
layout, inline in the zine's HTML), MAP answers with a picture, a preview carries its map, and a
map that fails to draw never holds the results back."""

from __future__ import annotations

import asyncio
import struct
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest

from app.mail.outbound.drain import drain_once
from app.mail.outbound.mailer import MemoryMailer
from tests.server.conftest import POWERS, Harness, player, signon
from tests.support.shown import shown_text, without_trailing_spaces

GM = "gm@example.com"


def _png_width(data: bytes) -> int:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int(struct.unpack(">I", data[16:20])[0])


def _sent(harness: Harness) -> dict[str, list[EmailMessage]]:
    mailer = MemoryMailer()
    while asyncio.run(drain_once(harness.judge, mailer)):
        pass
    out: dict[str, list[EmailMessage]] = {}
    for mail in mailer.sent:
        parsed = message_from_bytes(mail.message_bytes, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        out.setdefault(mail.recipients[0], []).append(parsed)
    return out


def _pictures(message: EmailMessage) -> list[EmailMessage]:
    return [part for part in message.walk() if part.get_content_type() == "image/png"]


def _check_results_mail(message: EmailMessage, stored_text: str, layout: str) -> None:
    pictures = _pictures(message)
    assert len(pictures) == 1, message["Subject"]
    picture = pictures[0]
    assert _png_width(picture.get_content()) >= 1000
    text = message.get_body(preferencelist=("plain",))
    assert text is not None and shown_text(text) == without_trailing_spaces(stored_text)
    html = message.get_body(preferencelist=("html",))
    if layout == "zine":
        assert html is not None
        cid = str(picture["Content-ID"]).strip("<>")
        assert f'src="cid:{cid}"' in html.get_content()
        assert any(part.get_content_type() == "multipart/related" for part in message.walk())
    else:
        assert html is None
        assert picture.get_content_disposition() == "attachment"


def _start(harness: Harness, layout: str) -> None:
    harness.send(GM, f"CREATE alpha masterpw\nSET REMINDER 0\nSET LAYOUT {layout}\nSIGNOFF")
    for power in POWERS:
        assert harness.send(player(power), f"JOIN alpha pw{power.lower()} {power}").status == "done"


def _process(harness: Harness) -> None:
    harness.send(GM, "SIGNON master@alpha masterpw\nPROCESS")


@pytest.mark.parametrize("layout", ["judge", "zine"])
def test_movement_retreat_and_adjustment_results_carry_their_map(harness: Harness, layout: str) -> None:
    _start(harness, layout)
    harness.send(player("AUSTRIA"), signon("AUSTRIA") + "A Vie-Tyr")
    _process(harness)  # S1901M
    harness.send(player("AUSTRIA"), signon("AUSTRIA") + "F Tri-Ven\nA Tyr S F Tri-Ven")
    harness.send(player("ITALY"), signon("ITALY") + "A Ven H")
    _process(harness)  # F1901M: Venice dislodged
    harness.send(player("ITALY"), signon("ITALY") + "A Ven D")
    _process(harness)  # F1901R
    harness.send(player("AUSTRIA"), signon("AUSTRIA") + "Build A Vie")
    _process(harness)  # W1901A
    rows = harness.outbox(to=player("FRANCE"), kind="results")
    phases = [row.subject.split()[-1] for row in rows]
    assert phases == ["S1901M", "F1901M", "F1901R", "W1901A"], phases
    mails = [m for m in _sent(harness)[player("FRANCE")] if m["Subject"].startswith("Diplomacy results")]
    assert [m["Subject"] for m in mails] == [row.subject for row in rows]
    for message, row in zip(mails, rows, strict=True):
        _check_results_mail(message, row.body_text, layout)
    pictures = {bytes(_pictures(m)[0].get_content()) for m in mails}
    assert len(pictures) == 4  # a map per phase


def _variant_game(harness: Harness, variant: str, powers: list[str], layout: str) -> None:
    harness.send(GM, f"CREATE beta masterpw {variant}\nSET REMINDER 0\nSET LAYOUT {layout}\nSIGNOFF")
    for power in powers:
        out = harness.send(f"{power.lower()}@example.com", f"JOIN beta pw{power.lower()} {power}")
        assert out.status == "done", out


ZEUS = ["BRITAIN", "CHINA", "GERMANY", "ITALY", "JAPAN", "USA", "USSR"]


@pytest.mark.parametrize(("variant", "layout"), [("zeus5", "judge"), ("smallworld7", "zine"), ("smallworld", "judge")])
def test_world_variants_results_carry_their_map(harness: Harness, variant: str, layout: str) -> None:
    powers = ZEUS if variant == "zeus5" else _smallworld_powers(harness, variant)
    _variant_game(harness, variant, powers, layout)
    harness.send(GM, "SIGNON master@beta masterpw\nPROCESS")
    harness.send(GM, "SIGNON master@beta masterpw\nPROCESS")
    address = f"{powers[0].lower()}@example.com"
    rows = harness.outbox(to=address, kind="results")
    assert len(rows) == 2
    mails = [m for m in _sent(harness)[address] if m["Subject"].startswith("Diplomacy results")]
    for message, row in zip(mails, rows, strict=True):
        _check_results_mail(message, row.body_text, layout)


def _smallworld_powers(harness: Harness, variant: str) -> list[str]:
    from app.services.ruleset.powers import PowerBook

    return PowerBook(harness.judge.variant_data(variant)).ids


def test_map_answers_with_a_picture_and_the_position_as_text(harness: Harness) -> None:
    _start(harness, "judge")
    harness.send("italy@example.com", "MAP alpha")  # an address of record (a stranger gets no map: 18.3)
    reply = harness.outbox(to="italy@example.com")[-1]
    assert reply.map_id is not None
    assert "A VIE" in reply.body_text and "Austria" in reply.body_text and "3 centres" in reply.body_text
    message = _sent(harness)["italy@example.com"][-1]
    pictures = _pictures(message)
    assert len(pictures) == 1 and _png_width(pictures[0].get_content()) >= 1000


def test_the_preview_carries_its_map(harness: Harness) -> None:
    _start(harness, "judge")
    harness.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur")
    harness.send(GM, "SIGNON master@alpha masterpw\nPREVIEW")
    preview = harness.outbox(to=GM, kind="preview")
    assert len(preview) == 1 and preview[0].map_id is not None
    message = [m for m in _sent(harness)[GM] if "preview" in str(m["Subject"])][0]
    assert len(_pictures(message)) == 1


def test_a_map_that_fails_to_draw_does_not_stop_the_results(harness: Harness,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> bytes:
        raise RuntimeError("renderer broke")

    monkeypatch.setattr("app.services.results.maps.phase_map_png", broken)
    harness.expect_maps = False
    _start(harness, "zine")
    _process(harness)
    rows = harness.outbox(to=player("FRANCE"), kind="results")
    assert len(rows) == 1  # the turn only records what its map is drawn from: drawing happens at sending
    message = [m for m in _sent(harness)[player("FRANCE")] if m["Subject"].startswith("Diplomacy results")][0]
    assert _pictures(message) == []
    html = message.get_body(preferencelist=("html",))
    assert html is not None and "cid:" not in html.get_content()


class _Died(BaseException):
    """The process dies at a crash point (not an error the drain may catch)."""


def test_a_turn_records_its_map_and_the_first_mail_sent_draws_it_once(harness: Harness,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing never lengthens a turn (a deadline storm of a thousand games): the turn records
    what the map is drawn from, the drain draws it for the first mail and keeps it for the rest."""
    from app.db.models import MapImage
    from app.maps import phase_map_png as real  # what app.services.results.maps draws with

    drawn: list[str] = []

    def counting(*args: Any, **kwargs: Any) -> bytes:
        drawn.append(str(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr("app.services.results.maps.phase_map_png", counting)
    _start(harness, "judge")
    _process(harness)
    assert drawn == []  # nothing drawn inside the turn
    with harness.judge.sessions.begin() as db:
        assert [image.png for image in db.query(MapImage)] == [None]
    sent = _sent(harness)
    assert drawn == ["standard"]  # one picture for every results mail of the phase
    assert all(len(_pictures(m)) == 1 for m in sent[player("FRANCE")] if m["Subject"].startswith("Diplomacy results"))


def test_a_results_mail_keeps_its_map_through_a_crash_of_the_sender(harness: Harness) -> None:
    _start(harness, "judge")
    _process(harness)
    points: list[str] = []

    def die_once(point: str) -> None:
        if point == "drain:before_send" and not points:
            points.append(point)
            raise _Died(point)

    harness.judge.crash = die_once
    with pytest.raises(_Died):
        asyncio.run(drain_once(harness.judge, MemoryMailer()))
    harness.clock.advance(seconds=harness.judge.settings.outbox_lease_seconds + 1)
    sent = _sent(harness)  # a new sender takes the lease over
    row = harness.outbox(to=player("FRANCE"), kind="results")[0]
    message = [m for m in sent[player("FRANCE")] if m["Subject"] == row.subject][0]
    _check_results_mail(message, row.body_text, "judge")


@pytest.mark.parametrize(
    ("html", "content_id", "kind"),
    [
        (None, None, "attachment"),
        (None, "map-1@judge.test", "attachment"),  # no HTML to show it in: attached
        ('<p><img src="cid:map-1@judge.test"></p>', "map-1@judge.test", "inline"),
    ],
)
def test_render_message_attaches_or_inlines_a_picture(html: str | None, content_id: str | None, kind: str) -> None:
    from app.mail.reading.messages import Attachment, OutgoingMail, render_message

    picture = Attachment("alpha-S1901M.png", "image/png", b"\x89PNG\r\n\x1a\n" + b"\0" * 20, content_id=content_id)
    raw = render_message(OutgoingMail(to="a@example.com", subject="s", text="results\n", html=html,
                                      attachments=(picture,)), "judge@judge.test")
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    parts = _pictures(message)
    assert len(parts) == 1 and parts[0].get_content_disposition() == kind
    if kind == "inline":
        assert parts[0]["Content-ID"] == f"<{content_id}>"
        related = [p for p in message.walk() if p.get_content_type() == "multipart/related"]
        assert related and any(p.get_content_type() == "text/html" for p in related[0].iter_parts())


def test_render_message_refuses_a_bad_content_id() -> None:
    from app.mail.reading.messages import Attachment, OutgoingMail, render_message

    picture = Attachment("m.png", "image/png", b"x", content_id="bad id\r\nX: y")
    with pytest.raises(ValueError, match="Content-ID"):
        render_message(OutgoingMail(to="a@example.com", subject="s", text="t", html="<p></p>",
                                    attachments=(picture,)), "judge@judge.test")


@pytest.mark.parametrize("layout", ["judge", "zine"])
def test_a_results_mail_with_its_map_is_light_and_carries_the_picture_once(harness: Harness, layout: str) -> None:
    """Issue 26.4: a phone user is glad to get it (100 kB at most, its map included), the map is
    in it once, and the zine's inline picture is the judge layout's attachment, byte for byte."""
    _start(harness, layout)
    harness.send(player("AUSTRIA"), signon("AUSTRIA") + "A Vie-Tyr\nF Tri-Ven")
    _process(harness)
    sent = _sent(harness)
    results = [m for m in sent[player("FRANCE")] if m["Subject"].startswith("Diplomacy results")]
    master = [m for m in sent[GM] if m["Subject"].startswith("Diplomacy results")]
    assert len(results) == 1 and len(master) == 1
    raw = results[0].as_bytes()
    assert len(raw) <= 100_000, len(raw)
    assert len(_pictures(results[0])) == 1 and len(_pictures(master[0])) == 1
    assert bytes(_pictures(results[0])[0].get_content()) == bytes(_pictures(master[0])[0].get_content())
