"""Whatever a mail body says, running its commands never raises."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.mail.commands.catalogue import run_commands, split_lines
from app.mail.commands.session import MailSession
from tests.server.conftest import Harness
from tests.support.hypothesis_profiles import examples
from tests.support.units import unit

WORDS = st.sampled_from(["SIGNON", "Falpha", "pwfrance", "A", "PAR", "-", "BUR", "PRESS", "TO", "ENDPRESS",
                         "SET", "WAIT", "DRAW", "PHASE", "CLEAR", "LIST", "alpha", ",", ";", "master@alpha",
                         "masterpw", "ROLLBACK", "PROCESS", "BROADCAST", "HISTORY", "JOIN", "\u00e9", "SIGNOFF"])
LINES = st.lists(st.lists(WORDS, max_size=6).map(" ".join) | st.text(max_size=40), max_size=12)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=LINES)
@example(lines=["JOIN SIGNON SIGNON"])  # a command waiting for a confirmation, on a mail not stored
def test_commands_never_raise(started: Harness, lines: list[str]) -> None:
    judge = started.judge
    with unit(judge, commit=False) as uow:  # rolled back
        ctx = MailSession(judge, uow, sender="fuzz@example.com", subject="", message_id="<f@x>")
        run_commands(ctx, split_lines("\n".join(lines)))
        ctx.status_views()
