"""Which engine runs: the Python sources, or the same sources compiled with mypyc.

`make` compiles the engine and the codec that feeds it (`tools/build_engine.py`) into
`app/_native/<package>/`, with a stamp of the sources it was built from. When `app.engine` or
`app.db` is imported, its compiled modules are put in front of its sources, but only if every
source the stamp covers is exactly what was compiled: one edited file and all of them run as
Python again (compiled modules are built against each other and are never mixed with newer
sources). The compiled engine is a speed-up only: the two are the same code and the tests run
on both (`make test`).

`POSTAL_JUDGE_ENGINE` chooses: `python` (never compiled: tracebacks and debuggers see the
sources), `native` (compiled or an ImportError: `make test` and `make bench` use it, so a
stale build cannot pass unnoticed), unset (compiled when fresh, else Python).

This module and the package's `__init__` are the engine's only I/O, at import time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import MutableSequence
from pathlib import Path

APP_DIR = Path(__file__).resolve().parent.parent
NATIVE_DIR = APP_DIR / "_native"
STAMP = "stamp.json"
CHOICE = "POSTAL_JUDGE_ENGINE"
SOURCES = ("engine/*.py", "db/codec.py")  # what the stamp covers, under app/
LOADER = ("engine/__init__.py", "engine/native.py")  # never compiled, never stamped


def source_hashes(app_dir: Path = APP_DIR) -> dict[str, str]:
    """The SHA-256 of every source the stamp covers, by its path under `app/`."""
    paths = sorted({path for pattern in SOURCES for path in app_dir.glob(pattern)})
    hashes = {path.relative_to(app_dir).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest() for path in paths}
    return {name: digest for name, digest in hashes.items() if name not in LOADER}


def build_tag() -> str:
    """The interpreter a compiled module is tied to."""
    return f"{sys.implementation.cache_tag}-{sys.platform}"


def stale_reason(native_dir: Path = NATIVE_DIR, app_dir: Path = APP_DIR) -> str | None:
    """None when `native_dir` holds a build of exactly these sources for this interpreter;
    otherwise why not."""
    try:
        stamp = json.loads((native_dir / STAMP).read_text())
    except (OSError, ValueError):
        return f"no compiled engine in {native_dir} (make builds it)"
    if not isinstance(stamp, dict) or stamp.get("python") != build_tag():
        return "the compiled engine was built for another Python"
    if stamp.get("sources") != source_hashes(app_dir):
        return "the engine's sources changed since it was compiled (make rebuilds it)"
    return None


_CHECKED: dict[tuple[Path, Path], str | None] = {}


def activate(package_path: MutableSequence[str], package: str, choice: str | None = None,
             native_dir: Path = NATIVE_DIR, app_dir: Path = APP_DIR) -> bool:
    """Put the compiled modules of `app.<package>` in front of its sources when they are
    fresh and wanted (`choice`: `POSTAL_JUDGE_ENGINE` unless given)."""
    choice = os.environ.get(CHOICE, "") if choice is None else choice
    if choice not in ("", "python", "native"):
        raise ImportError(f"{CHOICE} is 'python', 'native' or unset, not {choice!r}")
    if choice == "python":
        return False
    key = (native_dir, app_dir)
    if key not in _CHECKED:  # app.engine and app.db ask once between them
        _CHECKED[key] = stale_reason(native_dir, app_dir)
    reason = _CHECKED[key]
    if reason is not None:
        if choice == "native":
            raise ImportError(f"{CHOICE}=native: {reason}")
        return False
    package_path.insert(0, str(native_dir / package))
    if str(native_dir) not in sys.path:
        sys.path.append(str(native_dir))  # mypyc's shared library is a top-level module
    return True


def in_use() -> bool:
    """True when the running engine (and its codec) is the compiled one."""
    from . import resolve

    return str(resolve.__file__).endswith((".so", ".pyd"))
