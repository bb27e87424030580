"""Acknowledgements and previews (issue 8 items 6 and 8): too many builds are warned of, a
failed build is printed as failed, a preview does not promise a deadline it cannot know."""

from __future__ import annotations

from tests.server.conftest import Harness, player, signon

GM = "SIGNON master@alpha masterpw\n"


def _to_winter(started: Harness) -> None:
    started.send(player("ENGLAND"), signon("ENGLAND") + "F Edi - Nwg\nF Lon - Nth\nA Lvp - Yor")
    started.send("gm@example.com", GM + "PROCESS")
    started.send(player("ENGLAND"), signon("ENGLAND") + "F Nwg - Nwy\nF Nth H\nA Yor H")
    started.send("gm@example.com", GM + "PROCESS")


def test_a_second_build_with_one_allowed_is_warned_and_reported_failed(started: Harness) -> None:
    _to_winter(started)
    started.send(player("ENGLAND"), signon("ENGLAND") + "Build A Edi\nBuild F Lon")
    ack = started.last_reply(player("ENGLAND"))
    assert "Warning: 2 builds ordered, 1 allowed: the builds after the first will fail." in ack, ack
    started.send("gm@example.com", GM + "PROCESS")
    results = started.outbox(to=player("FRANCE"), kind="results")[-1].body_text
    assert "England:    Builds an army in Edinburgh.\n" in results, results
    assert "England:    Builds a fleet in London.  (*too many builds*)\n" in results


def test_the_preview_does_not_say_none_set(started: Harness) -> None:
    started.send("gm@example.com", GM + "PREVIEW")
    text = "\n".join(m.body_text for m in started.outbox(to="gm@example.com"))
    assert "PREVIEW" in text
    assert "will be none set" not in text
    assert "Its deadline will be set when this phase is processed." in text
