"""Issue 26 item 2 (the send path): a mail's MIME body put together from parts rendered once
(``app.mail.reading.mime_body.composed``) is the email package's own rendering of the whole mail
(``whole``, what ``render_message`` sent before), byte for byte but its boundaries, and parses to
the same parts; the map's part is encoded once for the mails of a phase."""

from __future__ import annotations

import random
import re
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from app.mail.reading import mime_body
from app.mail.reading.messages import OutgoingMail, parse_message, render_message
from app.mail.reading.mime_body import Attachment, Body, composed, whole

PNG = random.Random(26).randbytes(40_000)  # any bytes: base64 cares not
MAP = Attachment("alpha_S1901M.png", "image/png", PNG)
INLINE = Attachment("alpha_S1901M.png", "image/png", PNG, content_id="map.abc123@judge.test")
HTML = '<p>Results <img src="cid:map.abc123@judge.test" alt="map"></p>\n<pre>A PAR - BUR</pre>'
TEXTS = {
    "short": "Spring 1901 results\n  A PAR - BUR\n  F BRE - MAO (*bounce*)\n",
    "long lines (flowed)": ("  RESIGN [Fgame password] -- give up your power; it is opened for TAKEOVER.  " * 3
                            + "\nFrom here on\n-- \nthe end\n"),
    "non-ASCII": "Résultats du printemps 1901 — Österreich, Türkei, 日本\n  A VIE - GAL\n",
    "boundary-like lines": "--\n--=_\n-- \n=_pj\n==\n=\n.\n..\nFrom me\n" + "-" * 90 + "\n",
    "CRLF, no final newline": "one\r\ntwo\rthree",
    "empty": "",
    "quoted-printable's own marks": "a=b =3D =_ =\n" + "x=" * 60 + "\n",
}


def _normalized(data: bytes) -> bytes:
    """``data`` with every boundary named by its order of appearance."""
    names: dict[bytes, bytes] = {}
    for found in re.findall(rb'boundary="([^"]+)"', data):
        names.setdefault(found, b"BOUNDARY%d" % len(names))
    for found, name in names.items():
        data = data.replace(found, name)
    return data


def _shape(data: bytes) -> list[tuple[object, ...]]:
    """Each part of a mail as the email package reads it: its type, its headers (but the
    boundary), its decoded content."""
    parsed = message_from_bytes(data, policy=policy.default)
    shape: list[tuple[object, ...]] = []
    for part in parsed.walk():
        assert isinstance(part, EmailMessage) and not part.defects
        headers = sorted((k.lower(), re.sub(r'boundary="[^"]+"', "", str(v))) for k, v in part.items())
        content = None if part.is_multipart() else part.get_content()
        shape.append((part.get_content_type(), part.get_filename(), part["Content-ID"], headers, content))
    return shape


def _both(text: str, html: str | None, attachments: tuple[Attachment, ...]) -> tuple[Body, Body]:
    return whole(text, html, attachments), composed(text, html, attachments)


@pytest.mark.parametrize("text", TEXTS.values(), ids=TEXTS.keys())
@pytest.mark.parametrize(("html", "attachments"), [
    (None, (MAP,)),  # the judge layout: the map attached
    (HTML, (INLINE,)),  # the zine: the map inline in the HTML (multipart/related)
    (HTML, (MAP,)),  # HTML and an attached map
    ("<p>no map</p>", ()),  # HTML, no map
    (None, (INLINE,)),  # a Content-ID without HTML: attached
    (HTML, (INLINE, Attachment("orders.txt", "text/plain", b"A PAR - BUR\n"))),  # inline and attached
    (HTML, (MAP, INLINE)),
], ids=["judge", "zine", "html+attached", "html only", "cid without html", "inline+attached", "attached+inline"])
def test_composed_is_the_email_package_s_rendering_but_its_boundaries(
        text: str, html: str | None, attachments: tuple[Attachment, ...]) -> None:
    old, new = _both(text, html, attachments)
    assert _normalized(new.head + b"\r\n" + new.data) == _normalized(old.head + b"\r\n" + old.data)
    assert _shape(new.head + b"\r\n" + new.data) == _shape(old.head + b"\r\n" + old.data)
    assert re.fullmatch(rb'=_[0-9a-f]{34}', re.findall(rb'boundary="([^"]+)"', new.head)[0])


def test_random_texts_compose_alike() -> None:
    rng = random.Random(2026)
    alphabet = "abc XYZ=_-.\t\u00e9\u65e5>" + "\n" * 3
    for _ in range(60):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 400)))
        html = rng.choice([None, HTML])
        attachments = rng.choice([(MAP,), (INLINE,), ()])
        if html is None and not attachments:
            continue
        old, new = _both(text, html, attachments)
        assert _normalized(new.head + new.data) == _normalized(old.head + old.data)


@pytest.mark.parametrize("size", [0, 1, 56, 57, 58, 114, 1000])
def test_a_picture_of_any_length_is_encoded_as_the_email_package_does(size: int) -> None:
    """The base64 lines of a picture (``base64.encodebytes``) are the email package's: 76 characters."""
    picture = Attachment("p.png", "image/png", PNG[:size])
    for html, attachment in ((None, picture), (HTML, Attachment("p.png", "image/png", PNG[:size], "p.1@judge.test"))):
        old, new = _both("text\n", html, (attachment,))
        assert _normalized(new.head + b"\r\n" + new.data) == _normalized(old.head + b"\r\n" + old.data)


def test_a_phase_s_mails_encode_the_map_once() -> None:
    """Eight players, eight texts, one map: its part is rendered once (the cache), and each mail
    still carries it whole."""
    mime_body._picture.cache_clear()
    picture = Attachment("beta_F1901M.png", "image/png", PNG + b"beta")
    mails = [render_message(OutgoingMail(to=f"p{n}@players.test", subject="results", text=f"for player {n}\n",
                                         attachments=(picture,)), "judge@judge.test") for n in range(8)]
    assert mime_body._picture.cache_info().misses == 1 and mime_body._picture.cache_info().hits == 7
    for n, raw in enumerate(mails):
        parsed = message_from_bytes(raw, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        [attached] = parsed.iter_attachments()
        assert attached.get_content() == PNG + b"beta" and attached.get_filename() == "beta_F1901M.png"
        assert parse_message(raw).text == f"for player {n}\n"


def test_a_part_holding_the_boundary_mark_is_rendered_whole() -> None:
    """``=_`` in a leaf (here a filename, in a header) is not foreseen: the body is the email
    package's, whole, and still right."""
    odd = Attachment("a=_b.png", "image/png", PNG)
    with pytest.raises(mime_body._Unforeseen):
        composed("text\n", None, (odd,))
    made = mime_body.body("text\n", None, (odd,))
    assert b'boundary="===============' in made.head
    parsed = message_from_bytes(made.head + b"\r\n" + made.data, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    assert [a.get_filename() for a in parsed.iter_attachments()] == ["a=_b.png"]


@pytest.mark.parametrize("attachment", [
    Attachment("x.png", "image/png\r\nBcc: all@x.test", PNG),
    Attachment("x\r\n.png", "image/png", PNG),
    Attachment("x.png", "image/png", PNG, content_id="no at sign"),
])
def test_bad_attachments_are_refused_both_ways(attachment: Attachment) -> None:
    for render in (whole, composed):
        with pytest.raises(ValueError):
            render("text\n", HTML, (attachment,))
