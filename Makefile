# websearch-mcp: `make help` lists the targets.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime
DEV := $(VENV)/.dev
STAMP := $(VENV)/.installed
SOURCES := $(shell find websearch_mcp -name '*.py' -o -name '*.gz')

.PHONY: help install test lint bench run clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

# The package with its runtime dependencies only (what `make install` and `make run` need) ...
$(RUNTIME): setup.cfg pyproject.toml
	$(PYTHON) -m venv --upgrade-deps $(VENV)
	$(BIN)/pip install --quiet .
	touch $(RUNTIME)

# ... and the test tools, for `make test`, `make lint` and `make bench`.
$(DEV): $(RUNTIME)
	$(BIN)/pip install --quiet '.[test]'
	touch $(DEV)

# A regular (not editable) install, as users get it; reinstalled whenever a source file changes.
$(STAMP): $(RUNTIME) $(SOURCES)
	$(BIN)/pip install --quiet --no-deps --force-reinstall .
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install the package (as users get it: runtime dependencies only)

CONFORMANCE := .ci/node/node_modules/.bin/conformance

$(CONFORMANCE): .ci/node/package.json
	@if command -v npm >/dev/null 2>&1; then \
		npm install --prefix .ci/node --no-audit --no-fund --loglevel=error && touch $(CONFORMANCE); \
	else echo "npm not found: the MCP conformance tests will be skipped"; fi

# The OAuth tests' authorization server (oidc-provider), also from npm.
OAUTH_PROVIDER := tests/oauth_provider/node_modules/.installed

$(OAUTH_PROVIDER): tests/oauth_provider/package.json
	@if command -v npm >/dev/null 2>&1; then \
		npm install --prefix tests/oauth_provider --no-audit --no-fund --loglevel=error && touch $(OAUTH_PROVIDER); \
	else echo "npm not found: the OAuth tests will be skipped"; fi

test: $(DEV) $(STAMP) $(CONFORMANCE) $(OAUTH_PROVIDER)  ## run the whole test suite (unit, protocol, HTTP, end-to-end, shell, conformance)
	$(BIN)/python -m pytest -q

lint: $(DEV) $(STAMP)  ## ruff and mypy
	$(BIN)/ruff check websearch_mcp tests bench
	$(BIN)/mypy websearch_mcp

$(VENV)/.bench: $(DEV) $(STAMP)
	$(BIN)/pip install --quiet '.[bench]'
	touch $(VENV)/.bench

bench: $(VENV)/.bench  ## benchmarks (start-up, protocol, parsing, fetching, HTTP, extraction); prints ratios
	$(BIN)/python bench/run.py
	$(BIN)/python bench/store_bench.py
	$(BIN)/python bench/http_bench.py
	$(BIN)/python bench/http_load.py
	$(BIN)/python bench/extraction.py
	$(BIN)/python bench/agreement.py
	$(BIN)/python bench/answer_time.py
	$(BIN)/python bench/hedge_bench.py
	$(BIN)/python bench/reading_bench.py
	$(BIN)/python bench/site_bench.py
	$(BIN)/python bench/shell_bench.py
	$(BIN)/python bench/worst_pages.py

run: $(STAMP)  ## serve MCP on stdin/stdout
	$(BIN)/websearch-mcp

clean:  ## remove the virtualenv and caches
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
