from __future__ import annotations

from app.scheduler import tick
from tests.server.conftest import Harness, hold_all, player, signon


def test_press_to_all_but(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "PRESS TO ALL BUT Germany, England\nSecret plan\nENDPRESS")
    assert "Press sent to Austria, Italy, Russia, Turkey (4 mails)" in started.last_reply(player("FRANCE"))
    assert not started.outbox(to=player("GERMANY"), kind="press")
    assert "Secret plan" in started.outbox(to=player("ITALY"), kind="press")[0].body_text


def test_grey_press_hides_the_sender_and_white_only_refuses_it(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "PRESS TO Germany GREY\nboo\nENDPRESS")
    assert "white press only" in started.last_reply(player("FRANCE"))
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET PRESS white/grey")
    started.send(player("FRANCE"), signon("FRANCE") + "PRESS TO Germany GREY\nboo\nENDPRESS")
    text = started.outbox(to=player("GERMANY"), kind="press")[0].body_text
    assert "from Someone" in text and "France" not in text


def test_no_press_game(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET PRESS none")
    started.send(player("FRANCE"), signon("FRANCE") + "BROADCAST\nhi\nENDPRESS\nA Par H")
    reply = started.last_reply(player("FRANCE"))
    assert "has no press" in reply


def test_postal_press_published_with_results(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET PRESS postal\nSET LAYOUT zine\n"
                 "NOTE Welcome to the Alpha gazette.")
    started.send(player("FRANCE"), signon("FRANCE") + "BROADCAST\nVive la France!\nENDPRESS")
    assert "published with the next results" in started.last_reply(player("FRANCE"))
    assert not started.outbox(kind="press")
    hold_all(started)
    tick(started.judge)
    results = started.outbox(to=player("ITALY"), kind="results")[0]
    assert "Vive la France!" in results.body_text
    assert "GM NOTES" in results.body_text and "Welcome to the Alpha gazette." in results.body_text
    assert all(len(line) <= 72 for line in results.body_text.splitlines()), results.body_text
    assert results.body_html and "<table" in results.body_html


def test_player_text_is_escaped_in_the_html_results(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET PRESS postal\nSET LAYOUT zine\n"
                 "NOTE Mind the <b>bold</b> GM.")
    started.send(player("FRANCE"), signon("FRANCE") + "BROADCAST\n<script>alert('x')</script> & more\nENDPRESS")
    hold_all(started)
    tick(started.judge)
    results = started.outbox(to=player("ITALY"), kind="results")[0]
    assert results.body_html
    assert "<script>" not in results.body_html
    assert "&lt;script&gt;" in results.body_html and "&amp; more" in results.body_html
    assert "<b>bold</b>" not in results.body_html
    assert "<script>alert('x')</script>" in results.body_text  # the text part stays as written
