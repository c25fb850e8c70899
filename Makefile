# Two commands set everything up: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck pytest bench catalogs clean

# The compiled modules (setup.py) are built again whenever their sources change.
COMPILED := core/state.py core/legal.py core/engine.py core/scoring.py core/view.py \
	core/game.py core/bots/driver.py core/bots/asking.py core/bots/random_bot.py \
	core/bots/valuation.py core/bots/heuristic.py core/app/session.py core/app/turns.py \
	core/app/render.py core/app/updates.py core/app/markup.py core/app/story.py

$(STAMP): pyproject.toml setup.py $(COMPILED)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/bohnanza play

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check core adapters cli tests bench setup.py
	$(BIN)/ruff format --check core adapters cli tests bench setup.py

# mypy does not follow setuptools' package-dir mapping, so it reads the
# packages through a tree of links that mirrors the import names.
typecheck: $(STAMP)
	mkdir -p .typecheck/bohnanza
	for pkg in core adapters cli; do ln -sfn ../../$$pkg .typecheck/bohnanza/$$pkg; done
	$(BIN)/mypy -p bohnanza.core -p bohnanza.adapters -p bohnanza.cli

pytest: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/store.py
	$(BIN)/python bench/app.py
	$(BIN)/python bench/telegram.py
	$(BIN)/python bench/matrix.py
	$(BIN)/python bench/irc.py
	@if [ -n "$$BOHNANZA_TEST_POSTGRES_URL" ]; then $(BIN)/python bench/workers.py; \
	else echo "bench/workers.py skipped: set BOHNANZA_TEST_POSTGRES_URL to a PostgreSQL server"; fi

# Regenerate the message template from the sources and merge it into every catalog.
catalogs: $(STAMP)
	$(BIN)/pybabel extract -F adapters/i18n/babel.cfg --add-location=file --sort-by-file --width=100 \
		--project=bohnanza --version=0.1.0 --copyright-holder="the bohnanza authors" \
		-o adapters/i18n/locales/bohnanza.pot .
	$(BIN)/pybabel update -i adapters/i18n/locales/bohnanza.pot -d adapters/i18n/locales \
		-D bohnanza --ignore-obsolete --width=100

clean:
	rm -rf $(VENV) .typecheck .mypy_cache .pytest_cache .ruff_cache .hypothesis build *.egg-info
	find core -name '*.so' -delete
