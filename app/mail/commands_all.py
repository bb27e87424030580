"""Imports every command module so that the registry is complete."""

from __future__ import annotations

from app.mail import commands_gm, commands_player, commands_public
from app.mail.commands import REGISTRY, run_commands, split_lines

__all__ = ["REGISTRY", "commands_gm", "commands_player", "commands_public", "run_commands", "split_lines"]
