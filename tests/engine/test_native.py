"""The compiled engine (mypyc) is used only when built from exactly these sources, and it
answers exactly as the Python engine does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine import native
from benchmarks.positions import corpus

ROOT = Path(__file__).resolve().parents[2]


def _engine(tmp_path: Path) -> tuple[Path, Path]:
    """A fake `app/` with its build: (app, app/_native)."""
    app = tmp_path / "app"
    files = {"engine/__init__.py": "", "engine/native.py": "", "engine/resolve.py": "X = 1\n",
             "engine/orders.py": "Y = 2\n", "db/__init__.py": "", "db/codec.py": "Z = 3\n", "db/models.py": ""}
    for name, text in files.items():
        (app / name).parent.mkdir(parents=True, exist_ok=True)
        (app / name).write_text(text)
    built = app / "_native"
    built.mkdir()
    stamp = {"python": native.build_tag(), "sources": native.source_hashes(app)}
    (built / native.STAMP).write_text(json.dumps(stamp))
    return app, built


def test_the_stamp_names_every_engine_source_and_the_codec_but_not_the_loader(tmp_path: Path) -> None:
    app, _ = _engine(tmp_path)
    assert sorted(native.source_hashes(app)) == ["db/codec.py", "engine/orders.py", "engine/resolve.py"]


def test_a_build_of_these_sources_is_fresh_and_put_in_front(tmp_path: Path) -> None:
    app, built = _engine(tmp_path)
    path = [str(app / "engine")]
    assert native.stale_reason(built, app) is None
    assert native.activate(path, "engine", "", built, app) is True
    assert path == [str(built / "engine"), str(app / "engine")]


@pytest.mark.parametrize("change", ["edit", "codec edit", "new file", "removed file", "other python", "no stamp",
                                    "bad stamp"])
def test_any_difference_keeps_the_python_engine(tmp_path: Path, change: str) -> None:
    app, built = _engine(tmp_path)
    stamp_file = built / native.STAMP
    if change == "edit":
        (app / "engine/resolve.py").write_text("X = 2\n")
    elif change == "codec edit":
        (app / "db/codec.py").write_text("Z = 4\n")
    elif change == "new file":
        (app / "engine/convoy.py").write_text("")
    elif change == "removed file":
        (app / "engine/orders.py").unlink()
    elif change == "other python":
        stamp = json.loads(stamp_file.read_text())
        stamp_file.write_text(json.dumps({**stamp, "python": "cpython-39-linux"}))
    elif change == "no stamp":
        stamp_file.unlink()
    else:
        stamp_file.write_text("{not json")
    path = [str(app / "engine")]
    assert native.stale_reason(built, app) is not None
    for package in ("engine", "db"):
        assert native.activate(path, package, "", built, app) is False
        with pytest.raises(ImportError, match="POSTAL_JUDGE_ENGINE=native"):
            native.activate(path, package, "native", built, app)
    assert path == [str(app / "engine")]


def test_python_is_chosen_even_over_a_fresh_build_and_a_misspelt_choice_is_refused(tmp_path: Path) -> None:
    app, built = _engine(tmp_path)
    path = [str(app / "db")]
    assert native.activate(path, "db", "python", built, app) is False
    assert path == [str(app / "db")]
    with pytest.raises(ImportError, match="'python', 'native' or unset"):
        native.activate(path, "db", "compiled", built, app)


def _run(choice: str, args: list[str], stdin: str = "", env: dict[str, str] | None = None) -> str:
    env = {**os.environ, **(env or {}), native.CHOICE: choice}
    done = subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True, env=env,
                          cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.compiled_engine
def test_the_choice_reaches_the_engine_and_the_codec() -> None:
    """`make` builds the compiled engine before the tests (`make test` sets `native`, so a
    missing or stale build fails here and everywhere)."""
    code = ["-c", "import app.db, app.db.codec as c; from app.engine import native, COMPILED; "
                  "print(COMPILED, app.db.COMPILED, native.in_use(), c.__file__.endswith('.so'))"]
    assert _run("python", code).split() == ["False"] * 4
    assert _run("native", code).split() == ["True"] * 4


@pytest.mark.compiled_engine
def test_compiled_and_python_engines_answer_alike() -> None:
    """Every line of `judge adjudicate --jsonl` over 400 positions of the benchmark
    corpus, byte for byte: the outcomes, their reasons and the positions after."""
    lines = "\n".join(json.dumps(position.request(f"p{i}")) for i, position in enumerate(corpus(400))) + "\n"
    command = ["-m", "app.cli", "adjudicate", "--jsonl"]
    python, compiled = _run("python", command, lines), _run("native", command, lines)
    assert python.count("\n") == 400
    assert '"error"' not in python
    assert compiled == python


def test_the_benchmark_corpus_is_the_same_under_any_hash_seed() -> None:
    """The corpus both engines (and MILA's) are timed and compared on does not depend on
    set order: two runs with different hash seeds time the same positions."""
    code = ["-c", "import hashlib, json; from benchmarks.positions import corpus; "
                  "print(hashlib.sha256(json.dumps([p.request(str(i)) for i, p in enumerate(corpus(300))]).encode())"
                  ".hexdigest())"]
    digests = {_run("python", code, env={"PYTHONHASHSEED": seed}) for seed in ("0", "1", "2")}
    assert len(digests) == 1
