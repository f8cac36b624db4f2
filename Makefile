# Rulewright: the two commands a new user needs are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test setup build check lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,rl]'
	touch $(STAMP)

setup: $(STAMP)

## demo: set up, compile every spec, play one seeded game of every game
demo: $(STAMP)
	$(BIN)/rulewright build
	$(BIN)/rulewright demo --seed 1

## test: set up, then freshness check, lint, strict typing, the test suite, verify every game
test: $(STAMP)
	$(BIN)/rulewright build --check
	$(BIN)/ruff check rulewright compiler runtime generated tests
	$(BIN)/ruff format --check rulewright compiler runtime generated tests
	$(BIN)/mypy --strict rulewright compiler runtime generated
	$(BIN)/pytest
	$(BIN)/rulewright verify --examples 20 --out .verify-failures

build: $(STAMP)
	$(BIN)/rulewright build

bench: $(STAMP)
	$(BIN)/rulewright bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
