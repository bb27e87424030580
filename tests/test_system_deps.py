"""Issue 19.8: what the judge needs from Debian comes from one script, run by the Makefile on a
host and by both stages of the Dockerfile; the image carries the map fonts and the engine compiled
in its build stage.  (Docker itself is not run here: the Dockerfile is read, the script is run.)"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from app.maps.png import FONT_DIRS, FONT_FILES

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "system-deps.sh"


def _instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments left out."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    found = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            found.append((word.upper(), " ".join(rest.split())))
    return found


def _stages() -> dict[str, list[tuple[str, str]]]:
    stages: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for word, rest in _instructions((ROOT / "Dockerfile").read_text()):
        if word == "FROM":
            name = rest.split(" AS ")[-1].strip() if " AS " in rest.upper() else str(len(stages))
            current = stages.setdefault(name.lower(), [])
        elif current is not None:
            current.append((word, rest))
    return stages


def _runs(stage: list[tuple[str, str]]) -> str:
    return "\n".join(rest for word, rest in stage if word == "RUN")


def test_the_makefile_and_both_stages_of_the_dockerfile_run_the_same_script() -> None:
    recipe = re.search(r"^system-deps:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert recipe is not None and "scripts/system-deps.sh" in recipe.group(1)
    stages = _stages()
    assert list(stages)[-1] != "build" and "build" in stages, list(stages)
    build, runtime = stages["build"], stages[list(stages)[-1]]
    assert re.search(r"system-deps\.sh build\b", _runs(build))
    assert re.search(r"system-deps\.sh runtime\b", _runs(runtime))
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "apt-get" not in dockerfile, "Debian packages come from scripts/system-deps.sh only"


def test_the_build_stage_compiles_the_engine_and_the_image_carries_it() -> None:
    stages = _stages()
    build, runtime = stages["build"], stages[list(stages)[-1]]
    assert "tools/build_engine.py" in _runs(build)
    assert "POSTAL_JUDGE_ENGINE=native" in _runs(build)  # the build is checked where it is made
    copies = [rest for word, rest in runtime if word == "COPY"]
    assert any(re.fullmatch(r"--from=build /app/app/_native \./app/_native", rest) for rest in copies), copies
    # The stamp holds the hashes of the sources: both stages copy the same app/ to the same place.
    assert ("WORKDIR", "/app") in build and ("WORKDIR", "/app") in runtime
    assert ("COPY", "app ./app") in build and ("COPY", "app ./app") in runtime
    assert ("ENV", "POSTAL_JUDGE_ENGINE=native") in runtime
    assert "app/_native" in (ROOT / ".dockerignore").read_text().split()  # never the host's build
    assert "mypy" not in " ".join(rest for word, rest in runtime if word == "RUN")


def test_every_copied_path_is_in_the_build_context() -> None:
    """Each COPY from the build context names files of the repository that .dockerignore keeps;
    each COPY --from names an earlier stage."""
    ignored = {line.strip().rstrip("/") for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()}
    stages = _stages()
    for name, stage in stages.items():
        for word, rest in stage:
            if word != "COPY":
                continue
            *sources, _target = rest.split()
            if sources[0].startswith("--from="):
                assert sources[0].removeprefix("--from=") in list(stages)[:list(stages).index(name)], rest
                continue
            for source in sources:
                assert (ROOT / source).exists() and source.rstrip("/") not in ignored, (name, source)


def test_the_runtime_list_holds_every_font_the_map_loads() -> None:
    """Each DejaVu file app/maps/png.py loads belongs to a package of `system-deps.sh runtime`
    (asked of this machine's dpkg: the oblique of the sea names is in fonts-dejavu-extra)."""
    listed = subprocess.run(["bash", str(SCRIPT), "--list", "runtime"], capture_output=True, text=True, check=True)
    packages = set(listed.stdout.split())
    if shutil.which("dpkg") is None:
        pytest.skip(reason="no dpkg on this machine: the owners of the font files cannot be asked")
    for name in FONT_FILES:
        path = next((folder / name for folder in FONT_DIRS if (folder / name).is_file()), None)
        assert path is not None, f"{name} missing: run scripts/system-deps.sh runtime"
        owner = subprocess.run(["dpkg", "-S", str(path)], capture_output=True, text=True, check=True)
        assert owner.stdout.split(":")[0] in packages, (name, owner.stdout, packages)


def _fake_debian(tmp_path: Path, installed: set[str], uid: int) -> dict[str, str]:
    """A PATH whose dpkg-query, apt-get, sudo and id are stubs; apt-get and sudo log their words."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "log"
    stubs = {
        "dpkg-query": "for p in {installed}; do [ \"$p\" = \"${{@: -1}}\" ] && echo 'install ok installed' && exit 0; "
                      "done; exit 1",
        "apt-get": f'echo "apt-get $*" >> {log}',
        "sudo": f'echo "sudo $1" >> {log}; "$@"',
        "id": f"echo {uid}",
    }
    for name, body in stubs.items():
        path = bin_dir / name
        path.write_text("#!/usr/bin/env bash\n" + body.format(installed=" ".join(sorted(installed)) or "none") + "\n")
        path.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}


@pytest.mark.parametrize("uid", [0, 1000])
def test_the_script_installs_only_what_is_missing(tmp_path: Path, uid: int) -> None:
    env = _fake_debian(tmp_path, {"fonts-dejavu-core"}, uid)
    subprocess.run(["bash", str(SCRIPT), "runtime"], env=env, check=True, capture_output=True)
    log = (tmp_path / "log").read_text().splitlines()
    install = [line for line in log if line.startswith("apt-get install")]
    assert len(install) == 1 and install[0].split()[-1] == "fonts-dejavu-extra", log
    assert "fonts-dejavu-core" not in install[0]
    assert ("sudo apt-get" in log) == (uid != 0), log


def test_the_script_does_nothing_when_everything_is_there(tmp_path: Path) -> None:
    everything = set(subprocess.run(["bash", str(SCRIPT), "--list", "all"], capture_output=True, text=True,
                                    check=True).stdout.split())
    env = _fake_debian(tmp_path, everything, 1000)
    subprocess.run(["bash", str(SCRIPT), "all"], env=env, check=True, capture_output=True)
    assert not (tmp_path / "log").exists()  # no apt-get, no sudo


def test_the_build_list_names_a_compiler() -> None:
    listed = subprocess.run(["bash", str(SCRIPT), "--list", "build"], capture_output=True, text=True, check=True)
    assert {"gcc", "libc6-dev"} <= set(listed.stdout.split())


def test_after_the_script_a_map_is_drawn(tmp_path: Path) -> None:
    """The script, run on this machine (it installs what is missing, or nothing), then a PNG map."""
    if os.geteuid() != 0 and shutil.which("sudo") is None:
        missing = [name for name in ("DejaVuSans.ttf",) if not any((d / name).is_file() for d in FONT_DIRS)]
        if missing:
            pytest.skip(reason="the fonts are missing and this user can not install them (no root, no sudo)")
    subprocess.run(["bash", str(SCRIPT), "runtime"], check=True, capture_output=True, timeout=600)
    from app.maps import render_png, render_svg

    png = render_png(render_svg("standard", None, title="system-deps"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
