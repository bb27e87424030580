"""Step 5 of the reading: what clients and servers add is dropped silently."""

from __future__ import annotations

import pytest

from app.mail.reading import read_text
from app.mail.reading.furniture import drop_furniture, is_furniture


@pytest.mark.parametrize("line", [
    "Sent from my iPhone", "Sent from my iPad", "Sent from my Android device", "Sent from my Samsung Galaxy smartphone.",
    "Get Outlook for iOS", "Get Outlook for Android", "Sent from Mail for Windows", "Sent from Yahoo Mail on Android",
    "Sent from Outlook", "Envoyé de mon iPhone", "Von meinem iPhone gesendet", "Enviado desde mi iPhone",
    "Inviato da iPhone", "Verzonden vanaf mijn iPhone", "Sent with Proton Mail secure email.",
])
def test_client_furniture(line: str) -> None:
    assert is_furniture(line)


@pytest.mark.parametrize("line", ["A Ber-Pru", "SIGNON Gclients pw", "Sent the fleet north, as agreed."])
def test_not_furniture(line: str) -> None:
    assert not is_furniture(line)


@pytest.mark.parametrize("footer", [
    "_______________________________________________\nDiplomacy-players mailing list\n"
    "diplomacy-players@lists.example.org\nhttps://lists.example.org/mailman/listinfo/diplomacy-players\n",
    "__________________________________________________\nDo You Yahoo!?\nTired of spam?  Yahoo! Mail has the best "
    "spam protection around\nhttp://mail.yahoo.com\n",
    "--\nYou received this message because you are subscribed to the Google Groups \"dip\" group.\n",
])
def test_a_footer_below_a_rule_at_the_end_is_dropped(footer: str) -> None:
    assert drop_furniture(f"A Ber-Pru\nA Mun-Bur\n\n{footer}".split("\n")) == ["A Ber-Pru", "A Mun-Bur", ""]


def test_a_rule_above_orders_is_no_footer() -> None:
    lines = ["A Ber-Pru", "-----", "A Mun-Bur", "F Kie-Hol"]
    assert drop_furniture(lines) == lines


def test_furniture_is_dropped_from_the_text_read() -> None:
    assert read_text("A Ber-Pru\n\nSent from my iPhone\n").text == "A Ber-Pru\n\n"


@pytest.mark.parametrize("line", [
    "Get [Outlook for Android](https://aka.ms/ghei36)", "Verzonden met BlackBerry Work", "Verstuurd vanaf mijn iPhone",
    "Enviado do meu iPhone", "Wysłane z mojego iPhone'a", "Envoyé à partir de Outlook pour iOS<https://aka.ms/o0ukef>",
    "Sent from a magnificent torch of pixels", "Sent from TypeApp<http://www.typeapp.com/r?b=2621>",
    "Virus-free. www.avast.com",
])
def test_more_client_furniture(line: str) -> None:
    assert is_furniture(line)


@pytest.mark.parametrize("line", [
    "使用Zoho Mail发送", "发自我的iPhone", "发自我的 iPad", "從我的 iPhone 傳送", "iPhoneから送信", "나의 iPhone에서 보냄",
])
def test_chinese_japanese_and_korean_client_furniture(line: str) -> None:
    assert is_furniture(line)
    assert read_text(f"A Ber-Pru\n\n{line}\n").text == "A Ber-Pru\n\n"
