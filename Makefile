# The two entry points of the README. Each creates (or reuses) the virtualenv
# and installs what it needs, so they work on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test bench

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/judge serve --demo-game demo

test: $(VENV)/.installed
	$(BIN)/ruff check app tests benchmarks
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
