"""Acknowledgements and previews (issue 8 items 6 and 8): too many builds are warned of, a
failed build is printed as failed, a preview does not promise a deadline it cannot know."""

from __future__ import annotations

import pytest

from app.mail.replies.orders import too_many_warning
from app.services.orders.submit import OrderStatus
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


def _zine_row(text: str, power: str) -> list[str]:
    chart = text.split("SUPPLY CENTRES", 1)[1]
    return next(line.split() for line in chart.splitlines() if line.strip().startswith(power))


def test_the_zine_chart_compares_with_the_start_and_shows_the_fall_owners(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET LAYOUT zine")
    started.send(player("AUSTRIA"), signon("AUSTRIA") + "A Bud - Ser\nF Tri - Alb\nA Vie - Gal")
    started.send(player("RUSSIA"), signon("RUSSIA") + "A War - Gal")
    started.send("gm@example.com", GM + "PROCESS")
    started.send(player("AUSTRIA"), signon("AUSTRIA") + "F Alb - Gre\nA Ser H\nA Vie H")
    started.send(player("RUSSIA"), signon("RUSSIA") + "A Mos - Ukr")
    started.send(player("TURKEY"), signon("TURKEY") + "A Con - Bul")
    started.send("gm@example.com", GM + "PROCESS")
    fall = started.outbox(to=player("ITALY"), kind="results")[-1].body_text
    assert "Fall 1901 Movement" in fall, fall
    assert _zine_row(fall, "Austria") == ["Austria", "5", "+2", "3", "+2"], fall
    assert _zine_row(fall, "Turkey") == ["Turkey", "4", "+1", "3", "+1"], fall


WARNINGS = [
    (1, 1, False, None),
    (1, 2, False, "Warning: 2 builds ordered, 1 allowed: the builds after the first will fail."),
    (2, 3, True, "Warning: 3 removals ordered, 2 allowed: the removals after the first 2 will fail."),
    (0, 1, False, "Warning: 1 build ordered, none allowed: every build will fail."),
]


@pytest.mark.parametrize(("allowed", "given", "removing", "warning"), WARNINGS)
def test_too_many_builds_or_removals_are_warned(allowed: int, given: int, removing: bool, warning: str | None) -> None:
    status = OrderStatus(power="ENGLAND", phase="W1901A", allowed=allowed, extra=max(0, given - allowed),
                         removing=removing)
    assert too_many_warning(status) == warning
