# Two commands set everything up: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/bohnanza play

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check core adapters cli tests bench
	$(BIN)/ruff format --check core adapters cli tests bench

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

clean:
	rm -rf $(VENV) .typecheck .mypy_cache .pytest_cache .ruff_cache .hypothesis build *.egg-info
