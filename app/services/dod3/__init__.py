"""Days of Decision III games on the judge: the use cases, one module per step of the game.

* ``store``           - where the set-up, the running state and the dice are kept
* ``mailing``         - each player's copy of what the game mails (his own hidden numbers shown)
* ``steps``           - running the steps of a turn; ``process_turn`` for the deadlines
* ``setup``           - creating, seating, the GM's set-up data, starting Jan/Feb 1936
* ``player_commands`` - bids, Democrat move-downs, options and passes
* ``gm_entries``      - the GM's entries (numbers, wars, conquest, effects, record, weather)
* ``report``          - the turn report, the victory tally, the status views

A DoD III game is an ordinary ``Game`` row with ``variant == "dod3"``; its ruleset
(``app.services.ruleset.kinds``) sends its deadlines to ``process_turn``. The rules computations
are the pure functions of ``app.dod3``.
"""

from __future__ import annotations

from app.dod3.dice import generate_seed
from app.dod3.report import tally_lines

from .setup import create_game
from .setup import seat_holder as add_player
from .steps import process_turn
from .store import DEFAULT_HOURS, ROLE, current_state, is_dod3, setup_of, step_code, turn_code

__all__ = ["DEFAULT_HOURS", "ROLE", "add_player", "create_game", "current_state", "generate_seed", "is_dod3",
           "process_turn", "setup_of", "step_code", "tally_lines", "turn_code"]
