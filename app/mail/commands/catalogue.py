"""Imports every command module so that the registry is complete."""

from __future__ import annotations

import app.mail.commands.contest
import app.mail.commands.dod3
import app.mail.commands.ending  # noqa: F401  -- Days of Decision III (issue 5); the end of a game (issue 28)
from app.mail.commands import gm as commands_gm
from app.mail.commands import gm_seats as commands_gm_seats
from app.mail.commands import player as commands_player
from app.mail.commands import public as commands_public
from app.mail.commands import turns as commands_turns
from app.mail.commands.registry import REGISTRY, run_commands, split_lines

__all__ = ["REGISTRY", "commands_gm", "commands_gm_seats", "commands_player", "commands_public", "commands_turns",
           "run_commands", "split_lines"]
