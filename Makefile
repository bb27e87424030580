# The two entry points of the README. Each creates (or reuses) the virtualenv
# and installs what it needs, so they work on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test test-python-engine test-servers bench system-deps browser

# What the judge needs from Debian (the fonts of the map pictures; a C compiler and the Python
# headers for the compiled engine): the same script, and the same list, as the Dockerfile's.
system-deps:
	PYTHON=$(PYTHON) bash scripts/system-deps.sh all

# The dashboard's browser tests drive Debian's chromium through Playwright.
browser:
	bash scripts/browser.sh

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# The engine and its codec compiled with mypyc (a minute or two): the same sources, run faster.
# They are loaded only while they match the sources (app/engine/native.py).
ENGINE := app/_native/stamp.json
$(ENGINE): $(VENV)/.installed $(wildcard app/engine/*.py) app/db/codec.py tools/build_engine.py
	$(BIN)/python tools/build_engine.py

run: $(VENV)/.installed system-deps $(ENGINE)
	$(BIN)/judge serve --demo-game demo

# The engine's own tests on its Python sources while the compiled engine builds (the build
# keeps about one core busy: make -j2), then the whole suite on the compiled engine: both must
# pass, and `native` fails at once on a stale build. The tests that run the compiled engine
# themselves (marked compiled_engine) wait for the second run. The guard rails (ENGINE_FREE:
# mypy from a cold cache, the import contracts, the sizes) run no engine: they run beside the
# build, once, not in the second run. One worker process a core
# (pytest-xdist), each with its own mail servers; tests sharing a module's set-up stay in one
# worker (--dist loadgroup, tests/conftest.py). HYPOTHESIS_PROFILE=thorough for the full
# number of property examples (tests/support/hypothesis_profiles.py).
PYTEST_WORKERS ?= auto
test: $(VENV)/.installed system-deps
	$(BIN)/ruff check app tests benchmarks tools
	$(MAKE) --no-print-directory -j2 $(ENGINE) test-python-engine test-servers
	POSTAL_JUDGE_ENGINE=native $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup \
		$(addprefix --ignore=,$(ENGINE_FREE))

# What the server and browser tests take from Debian (chromium, dovecot), one apt-get after the
# other, while the engine builds; both scripts do nothing when it is there.
test-servers: browser
	bash scripts/mail-services.sh install

ENGINE_FREE := tests/test_architecture.py
test-python-engine: $(VENV)/.installed
	POSTAL_JUDGE_ENGINE=python $(BIN)/python -m pytest -q -m "not compiled_engine" tests/engine $(ENGINE_FREE)

# The benchmark peer (MILA's diplomacy package) lives in its own virtualenv:
# a yardstick, never a dependency of the judge.
.venv-bench/.installed:
	$(PYTHON) -m venv .venv-bench
	.venv-bench/bin/pip install --quiet diplomacy
	touch $@

bench: $(VENV)/.installed .venv-bench/.installed $(ENGINE)
	POSTAL_JUDGE_ENGINE=native $(BIN)/python benchmarks/adjudicate.py
	POSTAL_JUDGE_ENGINE=native $(BIN)/python benchmarks/inbound.py
	POSTAL_JUDGE_ENGINE=native $(BIN)/python benchmarks/deadline_storm.py
	POSTAL_JUDGE_ENGINE=native $(BIN)/python benchmarks/maps.py
	POSTAL_JUDGE_ENGINE=native $(BIN)/python benchmarks/deadline_to_inbox.py --games 1000
