"""Guard rails: the import contracts (import-linter, in pyproject.toml), the type checker (mypy,
strict for the engine, the services and the database layer) and the size of the core modules."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
MAX_LINES = 600


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False)


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    return _run([str(BIN / "lint-imports"), "--no-cache"], cwd)


def test_import_contracts_hold() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_types_check() -> None:
    # Its own cache: `make test` runs this beside the engine's mypyc build, which uses .mypy_cache.
    result = _run([sys.executable, "-m", "mypy", "--cache-dir", ".mypy_cache_guard"], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("app/web/__init__.py", "import app.mail.commands.registry\n"),
        ("app/mail/spy.py", "import app.web\n"),
        ("app/mail/spy.py", "import app.scheduler\n"),
        ("app/services/spy.py", "import app.mail.reading.messages\n"),
        ("app/services/spy.py", "import app.web\n"),
        ("app/services/spy.py", "import app.scheduler\n"),
        ("app/services/spy.py", "import app.main\n"),
        ("app/engine/spy.py", "import app.services.errors\n"),
        ("app/engine/spy.py", "import app.db.models\n"),
        ("app/services/kernel/spy.py", "import app.services.turns.map_turn\n"),  # a layer imports upward
        ("app/services/ruleset/spy.py", "import app.services.kernel.context\n"),
        ("app/services/seats/spy.py", "import app.services.dod3.store\n"),  # siblings
        ("app/services/games/spy.py", "import app.engine.api\n"),  # past the engine port
        ("app/services/readmodels/spy.py", "from app.db import codec\n"),
    ],
)
def test_contracts_catch_a_forbidden_import(tmp_path: Path, module: str, source: str) -> None:
    """The contracts are not vacuous: each refuses an import it exists to forbid (app/web included,
    before the web door exists)."""
    shutil.copytree(ROOT / "app", tmp_path / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    target.parent.mkdir(parents=True, exist_ok=True)
    if not (target.parent / "__init__.py").exists():
        (target.parent / "__init__.py").write_text("")
    if module != "app/web/__init__.py" and "app.web" in source and not (tmp_path / "app/web").exists():
        (tmp_path / "app/web").mkdir()
        (tmp_path / "app/web/__init__.py").write_text("")
    target.write_text(source)
    result = _lint_imports(tmp_path)
    importer = module.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    broken = result.stdout.split("Broken contracts", 1)[-1]
    assert result.returncode != 0, result.stdout + result.stderr
    assert re.search(rf"-\s+{re.escape(importer)} -> ", broken), result.stdout + result.stderr


@pytest.mark.parametrize("package", ["engine", "services"])
def test_core_modules_are_small(package: str) -> None:
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines()) for p in (ROOT / "app" / package).rglob("*.py")}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


def _service_imports(root: Path) -> dict[str, set[str]]:
    """Every service module's imports of other service modules, wherever they are written: at the
    top, inside a function, under ``TYPE_CHECKING``."""
    import ast

    base = root / "app" / "services"
    modules = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
               for p in base.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                package = name if path.name == "__init__.py" else name.rpartition(".")[0]
                origin = node.module or ""
                if node.level:
                    parts = package.split(".")
                    origin = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
                targets = [f"{origin}.{a.name}" if f"{origin}.{a.name}" in modules else origin for a in node.names]
            found |= {target for target in targets if target in modules and target != name}
        graph[name] = found
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_import_cycle_between_service_modules() -> None:
    graph = _service_imports(ROOT)
    assert len(graph) > 60 and any(graph.values())
    assert _cycles(graph) == []


def test_a_deferred_import_still_makes_a_cycle(tmp_path: Path) -> None:
    """The cycle check sees an import inside a function and one under ``TYPE_CHECKING``."""
    services = tmp_path / "app" / "services" / "pkg"
    services.mkdir(parents=True)
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "services" / "__init__.py").write_text("")
    (services / "__init__.py").write_text("")
    (services / "a.py").write_text("from app.services.pkg import b\n")
    (services / "b.py").write_text("def f():\n    from app.services.pkg.c import g\n")
    (services / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n")
    assert _cycles(_service_imports(tmp_path)) == [["app.services.pkg.a", "app.services.pkg.b", "app.services.pkg.c"]]


def test_the_service_layer_is_packages() -> None:
    """At most 15 modules directly in app/services (today: the package's own and the domain error)."""
    top = sorted(p.name for p in (ROOT / "app" / "services").glob("*.py"))
    assert len(top) <= 15, top
    packages = {p.parent.name for p in (ROOT / "app" / "services").glob("*/__init__.py")}
    assert {"kernel", "ruleset", "mailout", "orders", "results", "turns", "games", "override", "dod3",
            "readmodels"} <= packages


def test_the_judge_reaches_the_engine_only_through_the_typed_port() -> None:
    from dataclasses import fields

    from app.services.kernel.context import Judge

    assert "api" not in {f.name for f in fields(Judge)}


def _lines_in_app(root: Path, pattern: str, *, but: str) -> list[str]:
    """``path:line`` of each line of ``app/`` matching ``pattern``, outside the one file ``but``
    (relative to ``app/``) that may."""
    allowed = root / "app" / but
    found = []
    for path in sorted((root / "app").rglob("*.py")):
        if path == allowed:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(pattern, line):
                found.append(f"{path.relative_to(root)}:{number}")
    return found


def _raw_audit_rows(root: Path) -> list[str]:
    """Where ``app/`` builds an ``AuditEntry`` itself instead of calling ``kernel.audit.audit``."""
    return _lines_in_app(root, r"(?<!class )\bAuditEntry\(", but="services/kernel/audit.py")


def test_audit_rows_are_written_by_the_one_helper() -> None:
    """Every door and use case writes its audit row through ``app.services.kernel.audit.audit``."""
    assert _raw_audit_rows(ROOT) == []


def test_a_raw_audit_row_is_found(tmp_path: Path) -> None:
    (tmp_path / "app" / "services" / "kernel").mkdir(parents=True)
    (tmp_path / "app" / "services" / "kernel" / "audit.py").write_text("entry = AuditEntry(actor='a')\n")
    (tmp_path / "app" / "mail").mkdir()
    (tmp_path / "app" / "mail" / "door.py").write_text("x = 1\ndb.add(AuditEntry(actor=sender))\n")
    assert _raw_audit_rows(tmp_path) == ["app/mail/door.py:2"]


def _own_transactions(root: Path) -> list[str]:
    """Where ``app/`` opens a session or a transaction itself instead of through a unit of work
    (``app.services.kernel.uow``: the one place that calls the session factory)."""
    return _lines_in_app(root, r"\bsessions(?:\.begin)?\(", but="services/kernel/uow.py")


def test_transactions_are_opened_only_by_units_of_work() -> None:
    """Doors and jobs (the scheduler's tick too) open units of work; use cases take the unit."""
    assert _own_transactions(ROOT) == []


def test_an_own_transaction_is_found(tmp_path: Path) -> None:
    (tmp_path / "app" / "services" / "kernel").mkdir(parents=True)
    (tmp_path / "app" / "services" / "kernel" / "uow.py").write_text("session = self._sessions()\n")
    (tmp_path / "app" / "services" / "turns").mkdir()
    (tmp_path / "app" / "services" / "turns" / "job.py").write_text(
        "x = 1\nwith judge.sessions.begin() as db:\n    pass\ndb = judge.sessions()\n")
    assert _own_transactions(tmp_path) == ["app/services/turns/job.py:2", "app/services/turns/job.py:4"]


def _session_info(root: Path) -> list[str]:
    """Where ``app/`` keeps something in a session's ``info``: what lasts one transaction (the
    events, the held mails, the open phases, the locked games) is the unit of work's, in the open."""
    return _lines_in_app(root, r"\.info\b\s*(?:\[|\.(?:get|setdefault|pop)\b)", but="services/kernel/uow.py")


def test_nothing_hides_in_the_session_info() -> None:
    """Use cases take the unit of work (issue 27 item 1): no ``session.info`` outside ``kernel/uow.py``."""
    assert _session_info(ROOT) == []


def test_a_session_info_is_found(tmp_path: Path) -> None:
    (tmp_path / "app" / "db").mkdir(parents=True)
    (tmp_path / "app" / "db" / "queries.py").write_text(
        "x = 1\nlocked = session.info.setdefault('locked', {})\nunit = db.info['unit']\nlog.info('x')\n")
    assert _session_info(tmp_path) == ["app/db/queries.py:2", "app/db/queries.py:3"]


_STATUS_CONTEXT = re.compile(
    r"""(?:\.status|\.role|\bstatus)\s*(?:==|!=|=)\s*(?P<one>["']\w+["'])"""  # status == "x", seat.status = "x"
    r"""|(?:\.status|\.role|\bstatus)\s+(?:not\s+)?in\s*[(\[{](?P<many>[^)\]}]*)"""  # status in ("x", "y")
    r"""|\.status\.in_\(\((?P<sql>[^)]*)"""  # Game.status.in_(("x", "y"))
    r"""|\b(?:role|status)=(?P<kw>["']\w+["'])"""  # Phase(status="x"), role="x"
    r"""|["']status["']\s*:\s*(?P<key>["']\w+["'])""")  # {"status": "x"}


def _status_values() -> frozenset[str]:
    from app.db import statuses
    from app.dod3.political import PlayStatus
    from app.mail.commands.session import CommandRole

    enums = [getattr(statuses, name) for name in statuses.__all__ if name[0].isupper() and name[1].islower()]
    return frozenset(member.value for enum in (*enums, PlayStatus, CommandRole) for member in enum)


def _status_literals(root: Path) -> list[str]:
    """Where ``app/`` or a template compares or assigns a status (or a role) as a string literal,
    not an enum member (the web templates have the enums as globals: ``app/web/templating.py``)."""
    values = _status_values()
    found = []
    for path in sorted([*(root / "app").rglob("*.py"), *(root / "templates").rglob("*.j2")]):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in _STATUS_CONTEXT.finditer(line):
                text = "".join(part for part in match.groupdict().values() if part)
                if set(re.findall(r"""["'](\w+)["']""", text)) & values:
                    found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_statuses_are_named_by_their_enum_members() -> None:
    """``app/db/statuses.py`` (and the DoD III plays', the mail commands' roles): no status literal."""
    assert _status_literals(ROOT) == []


@pytest.mark.parametrize("line", [
    'if game.status == "active":', "if seat.status not in ('cd', 'abandoned'):", 'row.status = "ignored"',
    'select(Game).where(Game.status.in_(("forming", "active")))', 'Phase(game_id=1, status="open")',
    '_finish(judge, {"status": "sent"})', 'if seat.role == "observer":', 'return command.role == "anyone"',
])
def test_a_status_literal_is_found(tmp_path: Path, line: str) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "use_case.py").write_text(f'ok = {{"status": "ok"}}\nif game.status == GameStatus.ACTIVE:\n{line}\n')
    assert _status_literals(tmp_path) == [f"app/use_case.py:3: {line}"]


def test_a_status_literal_in_a_template_is_found(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "templates" / "web").mkdir(parents=True)
    (tmp_path / "templates" / "web" / "page.html.j2").write_text(
        "{% if s.status == GameStatus.PAUSED %}\n{% if s.status in (\"active\", \"paused\") %}\n")
    assert _status_literals(tmp_path) == ['templates/web/page.html.j2:2: {% if s.status in ("active", "paused") %}']
