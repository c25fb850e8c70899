# Two commands set everything up: `make play` and `make test`. They share one environment:
# `make play` installs what playing needs, `make test` adds the test tools (the extra `test`).
# Both run the sources as they are; `make compiled` builds the compiled modules (setup.py) beside
# them, for the benchmarks.
# The interpreter: the distribution's Python 3.11 where it has one with venv (Debian builds it with
# profile-guided and link-time optimisation: games and tests take a fifth less processor time than
# on a plain build, docs/benchmarks.md), otherwise the first python3 on the PATH.
PYTHON ?= $(firstword $(shell for python in /usr/bin/python3.11 python3; do \
	$$python -c 'import ensurepip, venv' 2>/dev/null && echo $$python && break; done) python3)
VENV := .venv
BIN := $(VENV)/bin
PLAYING := $(VENV)/.installed-play
TESTING := $(VENV)/.installed-test
COMPILED := build/.compiled
# Quiet: pip says what went wrong only, and setuptools' note on editable installs is left out.
PIP := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip --quiet --disable-pip-version-check

.PHONY: play test check coverage lint typecheck pytest bench compiled catalogs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

$(PLAYING): pyproject.toml setup.py | $(BIN)/python
	$(PIP) install -e .
	touch $(PLAYING)

# The test tools come with everything playing needs: `make play` after it installs nothing.
$(TESTING): pyproject.toml setup.py | $(BIN)/python
	$(PIP) install -e '.[test]'
	touch $(TESTING) $(PLAYING)

# Built again when any source under core/ changes: the compiled modules import the plain ones.
# `bohnanza` runs the sources, saying so, while these are older than one of them.
$(COMPILED): setup.py $(shell find core -name '*.py') | $(PLAYING)
	BOHNANZA_COMPILE=1 $(PIP) install --no-deps -e .
	mkdir -p build && touch $(COMPILED)

compiled: $(COMPILED)

# Ctrl-C stops the game and keeps it (exit 130, with the command that goes on with it): that is
# no failure of the target.
play: $(PLAYING)
	@trap : INT; $(BIN)/bohnanza play || [ $$? -eq 130 ]

# The tests run in parallel worker processes (pytest-xdist): a test often waits on a server, a
# process or a socket, so three workers a core (at most 12) keep the cores busy; an idle worker
# takes tests from a busy one (--dist worksteal). `make test JOBS=1` runs them in one process, in
# order.
JOBS ?= $(shell cores=$$(nproc 2>/dev/null || echo 2); echo $$(( cores * 3 < 12 ? cores * 3 : 12 )))
# The tests' files (SQLite stores, Synapse's data, pages) go to memory where the machine has it
# (/dev/shm): the tests then wait on the code, not on the disk's flushes.
TEST_TMPDIR ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo $${TMPDIR:-/tmp})
PYTEST = TMPDIR=$(TEST_TMPDIR) $(BIN)/pytest -n $(JOBS) --dist worksteal

test: lint typecheck pytest

# The loop after each edit: lint, types and the tests that need no server (marked `server`:
# PostgreSQL, Synapse, the IRC network, Chromium, the Bot API server, `bohnanza serve`) and take
# no more than a few seconds (marked `slow`: whole games, many processes).
check: lint typecheck
	$(PYTEST) -m "not server and not slow"

lint: $(TESTING)
	$(BIN)/ruff check core adapters cli tests bench setup.py
	$(BIN)/ruff format --check core adapters cli tests bench setup.py

# mypy does not follow setuptools' package-dir mapping, so it reads the
# packages through a tree of links that mirrors the import names.
typecheck: $(TESTING)
	mkdir -p .typecheck/bohnanza
	for pkg in core adapters cli; do ln -sfn ../../$$pkg .typecheck/bohnanza/$$pkg; done
	$(BIN)/mypy -p bohnanza.core -p bohnanza.adapters -p bohnanza.cli

pytest: $(TESTING)
	$(PYTEST) --durations=15

# Line coverage of core/, adapters/ and cli/ by the whole suite, as the test processes run them
# (what the programs they start run is not counted).
coverage: $(TESTING)
	$(PYTEST) --cov=core --cov=adapters --cov=cli --cov-report=term:skip-covered

bench: $(TESTING) $(COMPILED)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/store.py
	$(BIN)/python bench/app.py
	$(BIN)/python bench/telegram.py
	$(BIN)/python bench/matrix.py
	$(BIN)/python bench/irc.py
	@if [ -n "$$BOHNANZA_TEST_POSTGRES_URL" ]; then $(BIN)/python bench/workers.py; \
	else echo "bench/workers.py skipped: set BOHNANZA_TEST_POSTGRES_URL to a PostgreSQL server"; fi

# Regenerate the message template from the sources and merge it into every catalog.
catalogs: $(PLAYING)
	$(BIN)/pybabel extract -F adapters/i18n/babel.cfg --add-location=file --sort-by-file --width=100 \
		--project=bohnanza --version=0.1.0 --copyright-holder="the bohnanza authors" \
		-o adapters/i18n/locales/bohnanza.pot .
	$(BIN)/pybabel update -i adapters/i18n/locales/bohnanza.pot -d adapters/i18n/locales \
		-D bohnanza --ignore-obsolete --width=100

clean:
	rm -rf $(VENV) .typecheck .mypy_cache .pytest_cache .ruff_cache .hypothesis build dist *.egg-info
	find core -name '*.so' -delete
	rm -f core/compiled-from.json
