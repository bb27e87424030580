"""The `judge` command. Each subsystem registers its own subcommands."""

from __future__ import annotations

import argparse
import importlib
import sys

# Modules that add subcommands: each exposes `register(subparsers)`.
# A subcommand module is imported only when present, so subsystems can land one by one.
_COMMAND_MODULES = (
    "app.engine_cli",
    "app.dod3.cli",
    "app.server_cli",
    "app.maps.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="Postal Judge: Diplomacy by email.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for module_name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name and module_name.startswith(error.name):
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
