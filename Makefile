# websearch-mcp: `make help` lists the targets.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help install test lint bench run clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install the package with its test tools

test: $(STAMP)  ## run the whole test suite (unit, protocol, end-to-end, shell tests)
	$(BIN)/python -m pytest -q
	PATH="$(CURDIR)/$(BIN):$$PATH" sh tests/shell/run.sh

lint: $(STAMP)  ## ruff and mypy
	$(BIN)/ruff check websearch_mcp tests bench
	$(BIN)/mypy websearch_mcp

bench: $(STAMP)  ## benchmarks; prints ratios measured side by side
	$(BIN)/python bench/run.py

run: $(STAMP)  ## serve MCP on stdin/stdout
	$(BIN)/websearch-mcp

clean:  ## remove the virtualenv and caches
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
