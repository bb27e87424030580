# The two entry points of the README. Each creates (or reuses) the virtualenv
# and installs what it needs, so they work on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test bench system-deps browser

# What the judge needs from Debian: the font the map pictures are drawn with.
system-deps:
	bash scripts/install-map-fonts.sh

# The dashboard's browser tests drive Debian's chromium through Playwright.
browser:
	bash scripts/browser.sh

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

run: $(VENV)/.installed system-deps
	$(BIN)/judge serve --demo-game demo

test: $(VENV)/.installed system-deps browser
	$(BIN)/ruff check app tests benchmarks tools
	$(BIN)/python -m pytest -q

# The benchmark peer (MILA's diplomacy package) lives in its own virtualenv:
# a yardstick, never a dependency of the judge.
.venv-bench/.installed:
	$(PYTHON) -m venv .venv-bench
	.venv-bench/bin/pip install --quiet diplomacy
	touch $@

bench: $(VENV)/.installed .venv-bench/.installed
	$(BIN)/python benchmarks/adjudicate.py
	$(BIN)/python benchmarks/inbound.py
	$(BIN)/python benchmarks/deadline_storm.py
	$(BIN)/python benchmarks/maps.py
