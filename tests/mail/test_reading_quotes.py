"""Step 4 of the reading: where the writer's own text ends; the judge's own lines are never run."""

from __future__ import annotations

import pytest

from app.mail.reading import OwnMarks, read_text
from app.mail.reading.own import own_line

ORDERS = "A Ber-Pru\nA Mun-Bur\nF Kie-Hol\n\n"
ACK = ":: Judge: PJDG  Game: clients  Variant: standard\n\nCurrent orders for Germany:\n\n  A BER - SIL\n"
OWN = OwnMarks("judge@judge.test")


def _read(quote: str) -> list[str]:
    return [line for line in read_text(ORDERS + quote + ACK, OWN).text.splitlines() if line]


@pytest.mark.parametrize("quote", [
    "-----Original Message-----\nFrom: judge@judge.test\nSent: Thursday\nSubject: x\n\n",
    "----- Original Message -----\nFrom: \"judge\" <judge@judge.test>\nTo: g@example.org\nSent: Thursday\n\n",
    "-----Ursprüngliche Nachricht-----\nVon: judge\nGesendet: Donnerstag\n\n",
    "-------- Message d'origine --------\nDe : judge\n\n",
    "________________________________\nFrom: judge <judge@judge.test>\nSent: Thursday, December 3, 2026 6:02 PM\n\n",
    "________________________________\nDe : judge\nEnvoyé : jeudi 3 décembre 2026 18:02\nÀ : Germany\nObjet : x\n\n",
    "From: judge@judge.test <judge@judge.test>\nSent: Thursday, December 3, 2026 6:02 PM\nTo: Germany "
    "<germany@judge.test>\nSubject: Diplomacy orders clients S1901M\n\n",
    "*From:* judge <judge@judge.test>\n*Date:* Thu, 3 Dec 2026\n*Subject:* x\n\n",
    "Von: judge <judge@judge.test>\nGesendet: Donnerstag, 3. Dezember 2026 18:02\nAn: Germany\nBetreff: x\n\n",
    "De: judge <judge@judge.test>\nEnviado: jueves\nPara: Germany\nAsunto: x\n\n",
    "Da: judge\nInviato: giovedì 3 dicembre 2026\nA: Germany\nOggetto: x\n\n",
    "Van: judge\nVerzonden: donderdag\nAan: Germany\nOnderwerp: x\n\n",
    "On Thu, Dec 3, 2026 at 6:02 PM judge@judge.test <judge@judge.test>\nwrote:\n\n",
    "Le jeu. 3 déc. 2026 à 18:02, judge <judge@judge.test> a écrit :\n\n",
    "Am Do., 3. Dez. 2026 um 18:02 Uhr schrieb judge <judge@judge.test>:\n\n",
    "Begin forwarded message:\n\n",
    "",  # no separator at all: the judge's own lines stop it
])
def test_reading_stops_where_an_unmarked_quote_begins(quote: str) -> None:
    assert _read(quote) == ["A Ber-Pru", "A Mun-Bur", "F Kie-Hol"]


def test_the_answer_knows_where_and_how_much() -> None:
    reading = read_text(ORDERS + "-----Original Message-----\nFrom: judge\n\n" + ACK, OWN)
    assert reading.stopped.startswith("a quoted message begins ('-----Original Message-----'")
    assert (reading.stopped_line, reading.unread_lines) == (5, 5)


def test_a_quote_with_marks_is_skipped_and_reading_goes_on_below_it() -> None:
    text = "On Thu, Dec 3, 2026 at 6:02 PM judge <judge@judge.test> wrote:\n> Current orders for Germany:\n" \
           ">   A BER - SIL\n\nA Ber-Pru\n\n> more\nA Mun-Bur\n"
    reading = read_text(text, OWN)
    assert [line for line in reading.text.splitlines() if line and not line.startswith(">")] == [
        "A Ber-Pru", "A Mun-Bur"]  # the attribution line is dropped, not answered with an error
    assert reading.stopped == ""


def test_the_judges_own_header_lines_stop_reading_with_the_header_above_them() -> None:
    text = ORDERS + "---- Reply message ----\nFrom: judge\nDate: 3/12\n\n" + ACK  # a separator no rule knows
    reading = read_text(text, None)
    assert reading.text.split() == ["A", "Ber-Pru", "A", "Mun-Bur", "F", "Kie-Hol"]
    assert reading.stopped_line == 5


@pytest.mark.parametrize("line", [
    ":: Judge: PJDG  Game: lepanto  Variant: standard",
    ":: Deadline: S1901M Tue Mar 03 2026 12:35 GMT",
    "Current orders for France:",
    "End of orders.",
    "The deadline for S1901M orders is Tue Mar 03 2026 12:35 GMT.",
    "lepanto (standard) -- S1901M, deadline Tue Mar 03 2026 12:35 GMT",
    "FRANCE: YOUR ORDERS FOR S1901M",
    "                          THE LEPANTO GAZETTE",
    "Movement results for Spring of 1901.  (lepanto.S1901M)",
    "=" * 72,
    "Subject: RE: Diplomacy orders clients S1901M",
    "Betreff: AW: Diplomacy results lepanto S1901M",
])
def test_lines_of_the_judges_own_making(line: str) -> None:
    assert own_line(line)


@pytest.mark.parametrize("line", [
    "From: Judge <judge@judge.test>", "From: judge+ab12cd@judge.test", "To: judge@JUDGE.test",
    "Message-ID: <0123456789abcdef0123456789abcdef@judge.test>",
])
def test_a_quoted_header_naming_the_judge_is_its_own(line: str) -> None:
    assert own_line(line, OWN) and not own_line(line, OwnMarks("other@elsewhere.test"))


@pytest.mark.parametrize("line", [
    "A Ber-Pru", "F Kie-Hol", "SIGNON Gclients pw", "PRESS TO F", "Dear France, our deal holds.", "A BER - SIL",
    "F Lon-Nth: to the North Sea", "Germany: hold the line",
])
def test_a_players_lines_are_not_the_judges(line: str) -> None:
    assert not own_line(line, OWN)


def test_a_players_lines_with_colons_are_read_to_the_end() -> None:
    text = "SIGNON Gclients pw\nPRESS TO F\nFrom: the Kaiser\nTo: the Tsar\nWe hold.\nENDPRESS\nA Ber-Pru\n"
    assert read_text(text, OWN).text == text


@pytest.mark.parametrize("attribution", [
    "2016-10-24 15:36 GMT+02:00 judge <\njudge@judge.test>:",  # Gmail, older
    "Max Mustermann <max@example.org> schrieb am Fr., 28.\nApr. 2017 um 11:53 Uhr:",  # Gmail (German)
    "* judge <judge@judge.test> [2026-12-03 18:02]:",  # mutt's other attribution
    "judge <judge@judge.test> 于2026年12月3日周四 18:02写道：",  # Gmail (Chinese)
    "tir. 18. apr. 2017 kl. 13:09 skrev judge <judge@judge.test\n>:",  # Gmail (Norwegian), the address wrapped
    "ср, 30 апр. 2025 г. в 15:19, judge <judge@judge.test>:",  # Gmail (Russian): no verb
    "- On 2021-04-09 23:25, judge a wrote:",  # Zimbra
    "Dne čt 3. 12. 2026 18:02 uživatel judge <judge@judge.test> napsal:",  # Gmail (Czech)
])
def test_attributions_above_a_quote_are_dropped(attribution: str) -> None:
    text = f"A Ber-Pru\n\n{attribution}\n> Current orders for Germany:\n>   A BER - SIL\n"
    reading = read_text(text, OWN)
    assert [line for line in reading.text.splitlines() if line and not line.startswith(">")] == ["A Ber-Pru"]


@pytest.mark.parametrize("quote", [
    "----- Ursprüngliche Mail -----\nVon: judge\n\n",  # Zimbra (German)
    "---- On Wed, 24 Feb 2021 14:02:50 +0530 judge@judge.test wrote ----\n\n",  # Zoho
    "judge@judge.test wrote on 03/12/2026 18:02:\n\n",  # Lotus Notes
    "差出人: judge\n送信日時: 2026年12月3日 18:02\n件名: Diplomacy\n\n",  # Outlook (Japanese)
    "-------- Oprindelig besked --------\nFra: judge\nDato: 03.12.2026 18.02\n\n",  # Samsung Email (Danish)
])
def test_more_separators_stop_reading(quote: str) -> None:
    assert _read(quote) == ["A Ber-Pru", "A Mun-Bur", "F Kie-Hol"]


@pytest.mark.parametrize("line", [
    "On Thursday, I get proper rendering.",  # starts like an attribution, is none
    "On average, this works well.",
    "A Ber-Pru 1901",
])
def test_lines_that_only_look_like_attributions_are_read(line: str) -> None:
    assert read_text(f"{line}\nA Mun-Bur\n", OWN).text == f"{line}\nA Mun-Bur\n"


def test_a_press_letter_is_the_players_own_text_to_its_end() -> None:
    press = ("PRESS TO F\nOn Monday, 3 May, France wrote:\nLe 3 mai, la France a écrit :\nFrom: the Kaiser\n"
             "Sent: 1901\nWe hold.\nENDPRESS\n")
    text = f"SIGNON Gclients pw\n{press}A Ber-Pru\n\nOn Thu, Dec 3, 2026 at 6:02 PM judge wrote:\n" + ACK
    reading = read_text(text, OWN)
    assert reading.text == f"SIGNON Gclients pw\n{press}A Ber-Pru\n"
    assert reading.stopped.startswith("a quoted message begins ('On Thu, Dec 3, 2026")


def test_the_judges_own_lines_end_a_press_too() -> None:
    reading = read_text("PRESS TO F\nWe hold.\n\n" + ACK, OWN)
    assert reading.text == "PRESS TO F\nWe hold.\n"


# ---- the held-out client corpus (tests/mail/clients_heldout/) and more clients' languages

OTHER = "Hello Germany\nA BER - SIL\n"  # a quoted message that is not the judge's: no guard of its own stops it


def _read_other(quote: str) -> list[str]:
    return [line for line in read_text(ORDERS + quote + OTHER).text.splitlines()
            if line.strip() and not line.lstrip().startswith(">")]


@pytest.mark.parametrize("quote", [
    "‐‐‐‐‐‐‐ Original Message ‐‐‐‐‐‐‐\nOn Thursday, December 3rd, 2026 at 18:02, judge <judge@example.org> wrote:\n\n",
    "Sent: Thursday, December 03, 2026 at 6:02 PM\nFrom: \"judge\" <judge@example.org>\nTo: germany@gmx.com\n"
    "Subject: orders\n",  # GMX: the date first
    "Gesendet: Donnerstag, 03. Dezember 2026 um 18:02 Uhr\nVon: judge <judge@example.org>\nAn: Germany\n"
    "Betreff: Befehle\n",  # Web.de
    "发件人：judge\n发送时间：2026年12月3日 18:02\n收件人：Germany\n主题：orders\n",  # a full-width colon
    "보낸 사람: judge <judge@example.org>\n보낸 날짜: 2026년 12월 3일 목요일 오후 6:02\n받는 사람: Germany\n제목: orders\n",
    "De la: judge <judge@example.org>\nTrimis: joi, 3 decembrie 2026 18:02\nCătre: Germany\nSubiect: orders\n",
    "Από: judge <judge@example.org>\nΣτάλθηκε: Πέμπτη, 3 Δεκεμβρίου 2026 6:02 μμ\nΠρος: Germany\nΘέμα: orders\n",
    "Від: judge <judge@example.org>\nНадіслано: 3 грудня 2026 р. 18:02\nКому: Germany\nТема: orders\n",
    "מאת: judge <judge@example.org>\nנשלח: יום חמישי 03 דצמבר 2026 18:02\nאל: Germany\nנושא: orders\n",
    "من: judge <judge@example.org>\nتاريخ الإرسال: الخميس، 3 ديسمبر، 2026 6:02 م\nإلى: Germany\nالموضوع: orders\n",
    "Gönderen: judge <judge@example.org>\nGönderildi: 3 Aralık 2026 Perşembe 18:02\nAlıcı: Germany\nKonu: orders\n",
    "Od: judge <judge@example.org>\nOdoslané: štvrtok 3. decembra 2026 18:02\nKomu: Germany\nPredmet: orders\n",
    "Šalje: judge <judge@example.org>\nPoslano: četvrtak, 3. prosinca 2026. 18:02\nPrima: Germany\nPredmet: orders\n",
    ">>> judge <judge@example.org> 12/3/2026 6:02 PM >>>\n",  # GroupWise, the message below it unmarked
])
def test_a_quoted_message_of_anyone_stops_reading_in_more_clients_forms(quote: str) -> None:
    assert _read_other(quote) == ["A Ber-Pru", "A Mun-Bur", "F Kie-Hol"]


@pytest.mark.parametrize("attribution", [
    "judge <judge@example.org> ezt írta (időpont: 2026. dec. 3., Cs 18:02):",  # Gmail (Hungarian)
    "Dne čt 3. 12. 2026 18:02 judge <judge@example.org>\nnapsal(a):",  # Gmail (Czech), wrapped
    "في الخميس، 3 ديسمبر 2026 في 6:02 م <judge@example.org> كتب:",  # Gmail (Arabic)
    "\u202bבתאריך יום ה׳, 3 בדצמ׳ 2026 ב-18:02 מאת \u202ajudge <judge@example.org>\u202c\u200f:\u202c",  # (Hebrew)
    "เมื่อ พฤ. 3 ธ.ค. 2026 เวลา 18:02 judge <judge@example.org> เขียนว่า:",  # Gmail (Thai)
    "Pada tanggal Kam, 3 Des 2026 pukul 18.02 judge <judge@example.org> menulis:",  # Gmail (Indonesian)
    "El dj., 3 de des. 2026, a les 18:02, judge (<judge@example.org>) va escriure:",  # Gmail (Catalan)
    "星期二, 七月 2, 2019 6:09 晚上，judge <judge@example.org> 来信：",  # ProtonMail (Chinese)
])
def test_more_attributions_stop_reading_or_are_dropped_above_a_quote(attribution: str) -> None:
    assert _read_other(attribution + "\n") == ["A Ber-Pru", "A Mun-Bur", "F Kie-Hol"]  # the message unmarked below
    text = ORDERS + attribution + "\n> Hello Germany\n> A BER - SIL\n\nA Ber-Kie\n"  # an answer below the quote
    assert [line for line in read_text(text).text.splitlines() if line and not line.startswith(">")] == [
        "A Ber-Pru", "A Mun-Bur", "F Kie-Hol", "A Ber-Kie"]
