"""Compile the engine and its codec with mypyc into app/_native/ (what `make` runs; about 100 s).

    python tools/build_engine.py [--jobs 2] [--opt 3]

The sources stay the engine: the package loads the compiled modules only while every
source is exactly what was compiled (`app/engine/native.py`). The old build is removed
first, so a failed build leaves the Python engine in place, never a stale one.

Compiled: every module of `app/engine/` but its loader (`__init__.py`, `native.py`), and
`app/db/codec.py`, which turns the stored JSON into engine values and back.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.engine.native import NATIVE_DIR, SOURCES, STAMP, build_tag, source_hashes  # noqa: E402

GROUP = "postal_judge_engine"  # mypyc's shared library: postal_judge_engine__mypyc
MYPY_CONFIG = """\
[mypy]
python_version = 3.11
mypy_path = .
explicit_package_bases = True
check_untyped_defs = True
"""


def compiled_sources() -> list[str]:
    return [f"app/{name}" for name in source_hashes()]  # the loader is never stamped


def build(jobs: int, opt: str) -> Path:
    from mypyc.build import mypycify
    from setuptools import setup

    hashes = source_hashes()  # before compiling: an edit during the build makes it stale
    shutil.rmtree(NATIVE_DIR, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix="engine-build-"))
    try:
        config = work / "mypy.ini"
        config.write_text(MYPY_CONFIG)
        lib = work / "lib"
        extensions = mypycify(["--config-file", str(config), *compiled_sources()], opt_level=opt,
                              group_name=GROUP, target_dir=str(work / "c"))
        setup(name="postal-judge-engine", ext_modules=extensions,
              script_args=["--quiet", "build_ext", "--build-lib", str(lib), "--build-temp", str(work / "o"),
                           "--parallel", str(jobs)])
        staging = work / "_native"
        staging.mkdir()
        for path in sorted(lib.rglob("*.so")) + sorted(lib.rglob("*.pyd")):
            package = path.parent.relative_to(lib).parts[1:]  # app/engine/x.so -> engine/; mypyc's library on top
            target = staging.joinpath(*package)
            target.mkdir(parents=True, exist_ok=True)
            shutil.move(str(path), target / path.name)
        (staging / STAMP).write_text(json.dumps({"python": build_tag(), "sources": hashes}, indent=1) + "\n")
        shutil.move(str(staging), NATIVE_DIR)  # last: a build that failed left no directory
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return NATIVE_DIR


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--opt", default="3", help="the C compiler's optimisation level")
    args = parser.parse_args()
    os.chdir(ROOT)  # mypy reads the sources by their paths from the repository root
    target = build(args.jobs, args.opt)
    modules = sorted(path.relative_to(target).as_posix() for path in target.rglob("*.so"))
    print(f"compiled engine: {len(modules)} extension modules in {target.relative_to(ROOT)} "
          f"(the sources: {', '.join(SOURCES)})")


if __name__ == "__main__":
    main()
