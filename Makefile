# Rulewright: the two commands a new user needs are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# One stamp per install, so that neither skips the other's: the demo needs only the package, the
# tests need the dev tools at the versions of requirements-dev.lock.
DEMO_STAMP := $(VENV)/.installed-demo
TEST_STAMP := $(VENV)/.installed-test
LOCK       := requirements-dev.lock

.PHONY: demo test serve browser setup build check lint typecheck pytest bench images docs schemas lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(DEMO_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[verify]'
	touch $@

# --no-compile: pip would byte-compile every file of every package (half the install's CPU time);
# Python compiles the modules the tests import, once, as it imports them
# --no-build-isolation: the package is built by the setuptools the lock has just installed (with
# isolation, pip would install one into a build environment of its own first)
$(TEST_STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

setup: $(TEST_STAMP)

## demo: set up (the package and its verify extra, which the tutorial and the how-to use), compile
## every spec, play one seeded game of every game
demo: $(DEMO_STAMP)
	$(BIN)/rulewright build
	$(BIN)/rulewright demo --seed 1

## test: set up from the lock file, then freshness check, lint, strict typing, the test suite
## (with tests/test_installed.py: the package installed into a fresh venv), verify every game
# Bytecode is written whatever the environment says: the venv is installed without it, and with
# PYTHONDONTWRITEBYTECODE set each of the suite's Python processes would compile every module it
# imports (Hypothesis, NumPy, SciPy, Ray...) from source again (collecting the tests alone: 18 s
# of CPU instead of 8)
test: export PYTHONDONTWRITEBYTECODE :=
test: $(TEST_STAMP) browser
	$(BIN)/rulewright build --check
	$(BIN)/ruff check rulewright compiler runtime generated tests
	$(BIN)/ruff format --check rulewright compiler runtime generated tests
	$(BIN)/mypy --strict rulewright compiler runtime generated
	$(BIN)/pytest
	$(BIN)/rulewright verify --examples 20 --out .verify-failures

## browser: Chromium and its driver for tests/test_browser.py, from apt where we may (root or
## sudo without a password); if not, one line says so and that test is skipped
CHROMIUM := /usr/bin/chromium
browser:
	@[ -x $(CHROMIUM) ] || { \
	  if ! command -v apt-get >/dev/null; then sudo=no; \
	  elif [ "$$(id -u)" -eq 0 ]; then sudo=; \
	  elif sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	  else sudo=no; fi; \
	  { [ "$$sudo" != no ] && $$sudo apt-get update -qq && \
	    $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	      chromium chromium-driver; } >/dev/null 2>&1 && [ -x $(CHROMIUM) ] || \
	  echo "make: could not install Chromium (apt-get install chromium chromium-driver): tests/test_browser.py will be skipped"; }

## serve: set up (the package and its serve extra), compile every spec, and serve every game in
## the browser at http://127.0.0.1:8000/ (docs/serve.md; PORT=N and DATA=DIR change them)
SERVE_STAMP := $(VENV)/.installed-serve
PORT ?= 8000
DATA ?= rulewright-matches
$(SERVE_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[serve]'
	touch $@

serve: $(SERVE_STAMP)
	$(BIN)/rulewright build
	$(BIN)/rulewright serve --port $(PORT) --data $(DATA)

build: $(DEMO_STAMP)
	$(BIN)/rulewright build

## images: redraw the README's pictures: each game's board mid-game, and balance charts
IMAGES := docs/images
images: $(TEST_STAMP)
	$(BIN)/rulewright build
	$(BIN)/rulewright draw twilight_struggle --seed 4 --steps 200 --as US --out $(IMAGES)/twilight_struggle.png
	$(BIN)/rulewright draw iron_curtain --seed 1 --steps 40 --as USSR --out $(IMAGES)/iron_curtain.png
	$(BIN)/rulewright draw guerra_fronteriza --seed 1 --steps 120 -o operation=3 --as Germany --out $(IMAGES)/guerra_fronteriza.png
	$(BIN)/rulewright draw channel_tunnel --seed 1 --steps 60 --as France --out $(IMAGES)/channel_tunnel.png
	$(BIN)/rulewright draw hanabi --seed 3 --steps 30 -o seats=3 --as Alice --out $(IMAGES)/hanabi.png
	$(BIN)/rulewright draw lost_cities --seed 2 --steps 150 --as North --out $(IMAGES)/lost_cities.png
	$(BIN)/rulewright draw bang --seed 4 --steps 60 -o seats=7 --as Ann --out $(IMAGES)/bang.png
	$(BIN)/rulewright draw goofspiel --seed 3 --steps 14 --as North --out $(IMAGES)/goofspiel.png
	$(BIN)/rulewright simulate guerra_fronteriza -n 300 --seed 1 --agents greedy --vary operation=2,3,4 --plot $(IMAGES)/balance

## docs: write the reference pages again from the code: docs/cli.md (the argument parser) and
## docs/api.md (the runtime's docstrings); tests/test_docs.py fails while either is stale
docs: $(DEMO_STAMP)
	$(BIN)/python -m rulewright.docgen

## schemas: write compiler/schemas/*.schema.json again (`rulewright schema`) from the loader's keys
## and docs/dsl.md, after a change of either (tests/test_schema.py fails until then)
schemas: $(DEMO_STAMP)
	$(BIN)/python -m compiler.schema

bench: $(DEMO_STAMP)
	$(BIN)/rulewright bench

## lock: pin the dev tools again: every package of a fresh venv holding .[dev,rl,verify,ray]
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet -e '.[dev,rl,verify,ray]'
	{ echo "# Every package of a venv holding .[dev,rl,verify,ray], pinned: \`make test\` installs these."; \
	  echo "# Regenerate with \`make lock\` after changing the dependencies in pyproject.toml."; \
	  .lock-venv/bin/python -m pip freeze --all --exclude-editable --exclude pip | LC_ALL=C sort -f; } > $(LOCK)
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) .lock-venv .mypy_cache .pytest_cache .ruff_cache
