"""Which tests must run in the same pytest-xdist worker (`make test` runs ``-n auto --dist loadgroup``).

- The tests of a module whose fixtures are set up once per module (the dashboard's games,
  the browser): set up once, not once per worker.
- Any other test goes wherever a worker is free.  The mail servers are no reason to keep tests
  together: each worker starts its own instance, on ports and in a folder of its own
  (``mail_ports``), so one worker stopping its servers, or taking its SMTP server down on
  purpose, never touches another's.

The groups of tests that start servers (``SLOW``: a `judge serve`, the mail servers, the
browser) are handed out first, the most such tests first, then the others, the biggest first:
a long group handed out last would leave the other workers idle at the end.

Each worker writes the group of every test it collected to a folder the controller made (the
environment variable below); the controller's scheduler reads them back (xdist's own
``xdist_group`` marks are lost under pytest 9, which no longer lets a plugin rename a test).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

__all__ = ["SLOW", "finish", "group_of", "mail_ports", "make_scheduler", "publish_groups", "slow", "start", "worker_index"]

SLOW = ("server_factory", "mail_services", "chromium")  # fixtures that start servers
_FOLDER = "JUDGE_TEST_XDIST_GROUPS"


def group_of(item: pytest.Item) -> str:
    info = getattr(item, "_fixtureinfo", None)
    module = item.nodeid.split("::", 1)[0]
    if info is None:
        return module
    group = item.nodeid
    for name in info.names_closure:
        for fixturedef in info.name2fixturedefs.get(name, ()):
            if fixturedef.scope in ("package", "module", "class"):
                group = module
    return group


def worker_index() -> int:
    """This pytest-xdist worker's number (``gw3`` -> 3); 0 outside xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 0


def mail_ports(imap: int, smtp: int, directory: str) -> tuple[int, int, str]:
    """This worker's own instance of the test mail servers: its ports 200 apart from the next
    worker's (the bases of tests/mail and tests/e2e differ by 100 and never meet), its folder
    suffixed ``-gwN`` (worker 0 keeps the plain folder)."""
    index = worker_index()
    return imap + 200 * index, smtp + 200 * index, directory + (f"-gw{index}" if index else "")


def slow(item: pytest.Item) -> bool:
    """Whether the test starts servers (a fixture of ``SLOW``)."""
    return any(name in SLOW for name in getattr(item, "fixturenames", ()))


def start(config: pytest.Config) -> None:
    """In the controller, before the workers start: the folder the workers write their groups to."""
    if getattr(config, "workerinput", None) is None and config.getoption("dist", "no") == "loadgroup":
        os.environ[_FOLDER] = tempfile.mkdtemp(prefix="judge-xdist-groups-")


def finish(config: pytest.Config) -> None:
    folder = os.environ.get(_FOLDER)
    if getattr(config, "workerinput", None) is None and folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        del os.environ[_FOLDER]


def publish_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a worker, once its collection is final: every test's group, for the controller."""
    workerinput = getattr(config, "workerinput", None)
    folder = os.environ.get(_FOLDER)
    if workerinput is None or folder is None:
        return
    groups = {item.nodeid: [group_of(item), slow(item)] for item in items}
    target = Path(folder) / f"{workerinput['workerid']}.json"
    target.with_suffix(".tmp").write_text(json.dumps(groups))
    target.with_suffix(".tmp").replace(target)


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The controller's scheduler for ``--dist loadgroup``: xdist's scope scheduling over the groups."""
    folder = os.environ.get(_FOLDER)
    if config.getoption("dist", "no") != "loadgroup" or folder is None:
        return None
    root = Path(folder)
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc]
        groups: dict[str, tuple[str, bool]] | None = None
        ordered = False

        def _group(self, nodeid: str) -> tuple[str, bool]:
            # Called once every worker has sent its collection, so every file is written.
            if self.groups is None:
                self.groups = {}
                for path in sorted(root.glob("*.json")):
                    self.groups.update({key: (group, slow) for key, (group, slow) in json.loads(path.read_text()).items()})
            return self.groups.get(nodeid) or (nodeid.split("::", 1)[0], False)

        def _split_scope(self, nodeid: str) -> str:
            return self._group(nodeid)[0]

        def _assign_work_unit(self, node: Any) -> None:
            if not self.ordered:  # the first hand-out: the whole queue is known
                self.ordered = True
                order = sorted(self.workqueue.items(), key=lambda unit: (
                    -sum(self._group(nodeid)[1] for nodeid in unit[1]), -len(unit[1])))
                self.workqueue.clear()
                self.workqueue.update(order)
            super()._assign_work_unit(node)

    return GroupScheduling(config, log)
