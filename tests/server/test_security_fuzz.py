"""Issue 11, figures: the inbound fuzz run (benchmarks/fuzz_inbound.py) at a small N in the suite."""

from __future__ import annotations

import pytest

from benchmarks.fuzz_inbound import run_batch


@pytest.mark.parametrize("seed", [11])
def test_fuzzed_mails_no_crash_every_human_answered_once(seed: int) -> None:
    figures = run_batch(120, seed)
    assert figures.mails == 120
    assert figures.crashes == 0, figures.examples
    assert figures.unanswered == 0, figures.examples
    assert figures.duplicate_answers == 0
    assert figures.human > 60 and figures.answered + figures.budget_held == figures.human
