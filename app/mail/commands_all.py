"""Imports every command module so that the registry is complete."""

from __future__ import annotations

import app.mail.commands_contest
import app.mail.commands_dod3
import app.mail.commands_ending  # noqa: F401  -- Days of Decision III (issue 5); the end of a game (issue 28)
from app.mail import commands_gm, commands_gm_seats, commands_player, commands_public, commands_turns
from app.mail.commands import REGISTRY, run_commands, split_lines

__all__ = ["REGISTRY", "commands_gm", "commands_gm_seats", "commands_player", "commands_public", "commands_turns",
           "run_commands", "split_lines"]
