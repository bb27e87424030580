"""Step 3 of the reading: HTML to the lines a client shows, and the clients' reply markers."""

from __future__ import annotations

import pytest

from app.mail.reading.html import html_lines

ACK = "<p>:: Judge: PJDG  Game: clients</p><p>Current orders for Germany:</p><p>  A BER - SIL</p>"


def test_outlook_msonormal_paragraphs_give_one_order_a_line() -> None:
    html = ('<html><body><div class=WordSection1><p class=MsoNormal><span style="color:#1F497D">A Ber-Pru'
            '<o:p></o:p></span></p><p class=MsoNormal><span>A Mun-Bur<o:p></o:p></span></p><p class=MsoNormal>'
            '<o:p>&nbsp;</o:p></p><p class=MsoNormal>F Kie-Hol<o:p></o:p></p></div></body></html>')
    assert html_lines(html).lines == ["A Ber-Pru", "A Mun-Bur", "F Kie-Hol"]


def test_br_and_div_each_end_a_line() -> None:
    html = "<div>A Ber-Pru<br>A Mun-Bur</div><div>F Kie-Hol</div><div><br></div><div>SIGNOFF</div>"
    assert html_lines(html).lines == ["A Ber-Pru", "A Mun-Bur", "F Kie-Hol", "", "SIGNOFF"]


def test_text_after_the_end_of_the_html_is_a_line_of_its_own() -> None:
    html = "<html><body><div>PRESS TO F</div><div>Hello</div><div>ENDPRESS</div></body></html>Yahoo! Mail ad"
    assert html_lines(html).lines == ["PRESS TO F", "Hello", "ENDPRESS", "Yahoo! Mail ad"]


@pytest.mark.parametrize(("marker", "named"), [
    ('<div id="divRplyFwdMsg" dir="ltr"><b>From:</b> judge@judge.test<br><b>Sent:</b> Thursday</div>',
     "divRplyFwdMsg"),
    ('<div id="x_divRplyFwdMsg"><b>From:</b> judge@judge.test</div>', "x_divRplyFwdMsg"),
    ('<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in"><p class=MsoNormal>'
     '<b>From:</b> judge@judge.test</p></div>', "the rule above the quoted message"),
    ('<div id="appendonsend"></div><hr style="display:inline-block;width:98%">', "appendonsend"),
    ('<div class="OutlookMessageHeader"><b>From:</b> judge</div>', "OutlookMessageHeader"),
    ('<hr id="stopSpelling">', "stopSpelling"),
])
def test_outlook_reply_markers_end_the_reading(marker: str, named: str) -> None:
    html = f"<div>A Ber-Pru</div><div>A Mun-Bur</div>{marker}{ACK}"
    read = html_lines(html)
    assert read.lines == ["A Ber-Pru", "A Mun-Bur"]
    assert read.marker is not None and named in read.marker
    assert "Current orders for Germany:" in read.quoted


@pytest.mark.parametrize("quote", [
    '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Thu, Dec 3, 2026 at 6:02 PM judge wrote:<br>'
    '</div><blockquote class="gmail_quote" style="margin:0px">' + ACK + "</blockquote></div>",
    '<div class="yahoo_quoted"><div>On Thursday, judge wrote:</div><div>' + ACK + "</div></div>",
    '<div class="moz-cite-prefix">On 03/12/2026 18:02, judge wrote:<br></div><blockquote type="cite" '
    'cite="mid:x@judge.test">' + ACK + "</blockquote>",
    '<div><br><blockquote type="cite"><div>On Dec 3, 2026, at 18:02, judge wrote:</div><div>' + ACK
    + "</div></blockquote></div>",
])
def test_quotes_in_an_element_of_their_own_are_left_out_and_reading_goes_on(quote: str) -> None:
    html = f"<div>A Ber-Pru</div>{quote}<div>A Mun-Bur</div>"
    read = html_lines(html)
    assert [line for line in read.lines if line] == ["A Ber-Pru", "A Mun-Bur"]  # an answer below it is read
    assert read.marker is None


def test_any_other_blockquote_is_quoted_with_marks() -> None:
    assert html_lines("<div>A Ber-Pru</div><blockquote><div>A BER - SIL</div></blockquote>").lines == [
        "A Ber-Pru", "> A BER - SIL"]


@pytest.mark.parametrize("quote", [
    # GMX and Web.de: the quoted header and message in a <div name="quote">, the date first
    '<div name="quote" style="margin:10px 5px 5px 10px;"><div style="margin:0 0 10px 0;"><b>Gesendet:</b>&nbsp;'
    'Donnerstag, 03. Dezember 2026 um 18:02 Uhr<br/><b>Von:</b>&nbsp;judge<br/><b>Betreff:</b>&nbsp;Befehle</div>'
    '<div name="quoted-content">Hello Germany<br/>A BER - SIL</div></div>',
    # Yahoo's class names carry a prefix of its own
    '<div class="ydp9b1f0a55yahoo_quoted" id="ydp9b1f0a55yahoo_quoted_5894033310"><div>On Thursday, September 4, '
    '2025 at 11:30:41 AM EDT, Jane Roe wrote:</div><div>Hello Germany</div><div>A BER - SIL</div></div>',
])
def test_more_clients_quote_elements_are_left_out_and_an_answer_below_is_read(quote: str) -> None:
    read = html_lines(f"<div>A Ber-Pru</div>{quote}<div>A Mun-Bur</div>")
    assert [line for line in read.lines if line] == ["A Ber-Pru", "A Mun-Bur"]
