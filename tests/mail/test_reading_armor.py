"""Step 2b of the reading: an inline OpenPGP signature's text, without its armour (RFC 4880, 7)."""

from __future__ import annotations

from email.mime.text import MIMEText

from app.mail.reading.armor import unarmor
from app.mail.reading.messages import parse_message

SIGNED = """-----BEGIN PGP SIGNED MESSAGE-----
Hash: SHA256

SIGNON Gclients pw
A Ber-Pru
A Mun-Bur

- -- 
Hans
-----BEGIN PGP SIGNATURE-----

iQEzBAEBCAAdFiEEabcdefabcdefabcdefabcdefabcdefabcdFAmN0bm8ACgkQ
=abcd
-----END PGP SIGNATURE-----
"""


def test_the_signed_text_is_read_without_its_armour_and_dash_escapes() -> None:
    assert unarmor(SIGNED.split("\n")) == ["SIGNON Gclients pw", "A Ber-Pru", "A Mun-Bur", "", "-- ", "Hans", ""]


def test_text_around_the_signed_block_is_kept_and_a_mail_without_one_is_untouched() -> None:
    lines = ["A Ber-Pru", *SIGNED.split("\n"), "> quoted"]
    assert unarmor(lines)[0] == "A Ber-Pru" and unarmor(lines)[-1] == "> quoted"
    plain = ["-----", "A Ber-Pru", "- A Mun-Bur"]
    assert unarmor(plain) == plain


def test_a_signed_mail_is_read_as_its_client_shows_it() -> None:
    msg = MIMEText(SIGNED)
    msg["From"] = "hans@players.example"
    msg["To"] = "judge@judge.test"
    text = parse_message(msg.as_bytes()).text
    assert text.splitlines()[:3] == ["SIGNON Gclients pw", "A Ber-Pru", "A Mun-Bur"]
    assert "PGP" not in text and "Hash" not in text and "iQEz" not in text
