"""Issue 30 item 8, pure: the shape of the judge's own mail (``app.mail.reading.outgoing``,
``app.mail.replies.subjects``, ``render_message``): threading, flowed lines, list headers."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from app.mail.reading.flowed import unflow
from app.mail.reading.messages import OutgoingMail, parse_message, render_message
from app.mail.reading.outgoing import MAX_REFERENCES, flowed, list_id, references
from app.mail.replies.subjects import answer_subject

JUDGE = "judge@judge.test"


def _parsed(mail: OutgoingMail) -> EmailMessage:
    parsed = message_from_bytes(render_message(mail, JUDGE), policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_references_carry_the_players_chain_then_its_message_id() -> None:
    sent = _parsed(OutgoingMail(to="p@players.test", subject="Re: x", text="ok", in_reply_to="<c@p.test>",
                                references=("<a@p.test>", "<b@p.test>")))
    assert sent["In-Reply-To"] == "<c@p.test>"
    assert str(sent["References"]).split() == ["<a@p.test>", "<b@p.test>", "<c@p.test>"]


def test_references_are_read_from_the_players_mail() -> None:
    raw = (b"From: p@players.test\r\nTo: judge@judge.test\r\nSubject: Re: x\r\nMessage-ID: <c@p.test>\r\n"
           b"In-Reply-To: <b@p.test>\r\nReferences: <a@p.test>\r\n\t<b@p.test> junk\r\n\r\nHELP\r\n")
    assert parse_message(raw).references == ("<a@p.test>", "<b@p.test>")


def test_a_long_chain_keeps_its_first_and_last_ids_each_once() -> None:
    chain = tuple(f"<m{i}@p.test>" for i in range(30))
    kept = references(chain + ("<m3@p.test>",), "<new@p.test>")
    assert len(kept) == MAX_REFERENCES and kept[0] == "<m0@p.test>" and kept[-1] == "<new@p.test>"
    assert len(set(kept)) == len(kept) and kept[-2] == "<m3@p.test>"
    assert references("not an id <x y@z> <ok@p.test> <\u00e9@p.test>", "<no-at-sign>") == ("<ok@p.test>", "<no-at-sign>")


@pytest.mark.parametrize(("subject", "expected"), [
    ("orders", "Re: orders"),
    ("Re: orders", "Re: orders"),
    ("RE: Re: AW: SV: orders", "Re: orders"),
    ("Re[2]: Re^3: orders", "Re: orders"),
    ("回复：orders", "Re: orders"),
    ("Fwd: orders", "Re: Fwd: orders"),
    ("Re: Diplomacy orders alpha S1901M", "Re: Diplomacy orders alpha S1901M"),
    ("Re: SIGNON Falpha secretpw", "Re: SIGNON Falpha ****"),
    ("", "Diplomacy orders alpha S1901M"),
    ("  Re:  ", "Diplomacy orders alpha S1901M"),
    ("Regards", "Re: Regards"),
])
def test_an_answer_is_re_the_players_subject_once(subject: str, expected: str) -> None:
    assert answer_subject(subject, "Diplomacy orders alpha S1901M") == expected


def test_answers_are_auto_replied_the_rest_auto_generated_and_none_asks_for_an_auto_response() -> None:
    answer = _parsed(OutgoingMail(to="p@players.test", subject="Re: x", text="ok", in_reply_to="<c@p.test>"))
    results = _parsed(OutgoingMail(to="p@players.test", subject="Diplomacy results alpha S1901M", text="ok",
                                   auto_submitted="auto-generated"))
    assert answer["Auto-Submitted"] == "auto-replied" and results["Auto-Submitted"] == "auto-generated"
    assert answer["X-Auto-Response-Suppress"] == results["X-Auto-Response-Suppress"] == "All"


def test_a_game_has_a_list_id_and_a_seat_a_list_unsubscribe() -> None:
    assert list_id("lepanto", "Judge.Test") == "Game lepanto <lepanto.games.judge.test>"
    sent = _parsed(OutgoingMail(to="p@players.test", subject="s", text="ok", list_id=list_id("lepanto", "judge.test"),
                                unsubscribe="judge+u-abc234@judge.test"))
    assert sent["List-Id"] == "Game lepanto <lepanto.games.judge.test>"
    assert str(sent["List-Unsubscribe"]).strip() == "<mailto:judge+u-abc234@judge.test?subject=unsubscribe>"
    for bad in ("judge+u-abc@judge.test\r\nBcc: all@x.test", "two@a.test, three@b.test"):
        with pytest.raises(ValueError):
            render_message(OutgoingMail(to="p@players.test", subject="s", text="ok", unsubscribe=bad), JUDGE)


def test_short_lines_go_as_they_are() -> None:
    sent = _parsed(OutgoingMail(to="p@players.test", subject="s", text="From here\n  A PAR - BUR\n" + "x" * 78))
    body = sent.get_body(preferencelist=("plain",))
    assert body is not None and body.get_param("format") is None
    assert str(body.get_content()).replace("\r\n", "\n") == "From here\n  A PAR - BUR\n" + "x" * 78 + "\n"


def test_long_lines_are_flowed_within_78_columns_and_come_back_whole() -> None:
    help_line = "  RESIGN [Fgame password] -- give up your power; it is opened for TAKEOVER.  " * 3
    text = (f"{help_line.rstrip()}\nFrom here on, a line that starts with From: {'word ' * 20}\n"
            f"  A PAR - BUR\n> SIGNON Falpha **** {'and more ' * 12}\n-- \nthe end\n")
    out = flowed(text)
    assert max(len(line) for line in out.split("\n")) <= 78
    assert any(line.startswith(" From here on") for line in out.split("\n"))  # space-stuffed
    assert "   A PAR - BUR" in out.split("\n")  # space-stuffed
    assert all(line.startswith("> ") for line in out.split("\n") if "and more" in line)  # a quote stays a quote
    assert "-- " in out.split("\n")  # the signature separator is never soft
    assert unflow(out) == "\n".join(line.rstrip() if line != "-- " else line for line in text.split("\n"))
    sent = _parsed(OutgoingMail(to="p@players.test", subject="s", text=text))
    body = sent.get_body(preferencelist=("plain",))
    assert body is not None and body.get_param("format") == "flowed" and body.get_param("delsp") == "no"


def test_a_word_longer_than_the_line_stays_whole() -> None:
    word = "https://judge.test/" + "x" * 90
    assert flowed(f"see {word} there") == f"see \n{word} \nthere"
