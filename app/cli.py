"""The `judge` command. Each subsystem registers its own subcommands.

Only the module of the command asked for is imported: `judge adjudicate --jsonl` starts with the
engine and its codec alone, not the server, the dashboard or the map renderer (a stream of
positions pays its start-up once, and it counts in its speed)."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules that add subcommands: each exposes `register(subparsers)`, with the commands it adds.
# tests/test_cli.py checks that this table is what the modules register.
COMMANDS: dict[str, tuple[str, ...]] = {
    "app.engine_cli": ("adjudicate", "variant", "demo"),
    "app.dod3.cli": ("dod3",),
    "app.server_cli": ("serve", "db", "mail", "game", "tick", "drain"),
    "app.maps.cli": ("map",),
    "app.dashboard_cli": ("dashboard",),
}


def _module_of(argv: Sequence[str]) -> str | None:
    """The module that owns the command in ``argv``, or None (no command, or an unknown one:
    then every module is loaded, for the full usage message)."""
    command = next((word for word in argv if not word.startswith("-")), None)
    return next((module for module, names in COMMANDS.items() if command in names), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with ``argv``, only the subcommands of the module its command belongs to."""
    parser = argparse.ArgumentParser(prog="judge", description="Postal Judge: Diplomacy by email.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    owner = _module_of(argv) if argv is not None else None
    for module_name in COMMANDS if owner is None else (owner,):
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    args = build_parser(words).parse_args(words)
    return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
