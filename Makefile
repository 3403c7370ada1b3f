# meeplemind: `make serve` and `make test` are the whole Quick start.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SERVE_STAMP := $(VENV)/.serve-stamp
TS := clients/typescript
TS_STAMP := $(TS)/node_modules/.installed-stamp
WEB_BUNDLE := web/meeplemind-rpc.js
# The sources of the build's generated files too: the schemas, and every module of a game
# with a table generator (native/gen_<game>.py).
BUILD_INPUTS := pyproject.toml setup.py $(wildcard native/mm_*.c native/mm_*.h native/cdef/*.h native/*.py native/evaluation_*.json proto/generate.py proto/meeplemind/v1/*.proto \
	engine/schema.py engine/game_state.py engine/rng.py engine/errors.py engine/*/schema.py engine/*/data.py \
	$(patsubst native/gen_%.py,engine/%/*.py,$(wildcard native/gen_*.py)))

# make loadtest [USERS=8] [SPAWN_RATE=8] [DURATION=30s] [WORKERS=1 or 1,2] [PROCESSES=1]
#               [LOADTEST_ARGS=...]
USERS ?= 8
SPAWN_RATE ?= $(USERS)
DURATION ?= 30s
WORKERS ?= 1
PROCESSES ?= 1
LOADTEST_ARGS ?=

.PHONY: install lint test test-deep test-slow test-typescript serve bench loadtest fit-evaluation clean

# Two installs into the same .venv: serving's (the package alone, no sanitizer build) and
# development's (the test extra and the AddressSanitizer module too), which serves as well.
$(SERVE_STAMP): $(BUILD_INPUTS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $(SERVE_STAMP)

$(STAMP): $(BUILD_INPUTS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	MEEPLEMIND_BUILD_ASAN=1 $(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP) $(SERVE_STAMP)

install: $(STAMP) $(WEB_BUNDLE)

# The TypeScript client (clients/typescript): its npm packages, the code buf generates from
# proto/ and the web page's bundle of web/rpc.js's calls (web/meeplemind-rpc.js), all built,
# never committed.
$(TS_STAMP): $(TS)/package.json $(TS)/package-lock.json
	cd $(TS) && npm ci --no-audit --no-fund --loglevel=error
	touch $(TS_STAMP)

$(WEB_BUNDLE): $(TS_STAMP) $(TS)/buf.gen.yaml $(wildcard $(TS)/src/*.ts) $(wildcard proto/meeplemind/v1/*.proto)
	cd $(TS) && npm run --silent build:web

# ruff on everything (pyproject.toml [tool.ruff]); mypy --strict ([tool.mypy]) on every package py.typed
# marks (server/, search/, app/, engine/, web/, native/), seen as the packages they install as
# (tools/typecheck.py), and the scripts of tools/ that import them.
MYPY_STRICT := server search app engine web native tools/fit_evaluation.py tools/game_files.py
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python tools/typecheck.py $(MYPY_STRICT)

# Two passes: the CPU-bound rule, lockstep and fuzz games spread over both cores; then the
# rest (budgets, deadlines, cancellation, the smoke load) alone, so its timings hold.
test: $(STAMP) $(WEB_BUNDLE) lint
	$(BIN)/python -m pytest -q -n 2 tests/engine tests/native tests/conformance
	$(BIN)/python -m pytest -q --ignore=tests/engine --ignore=tests/native --ignore=tests/conformance

# The long runs CI leaves out: 10,000 lockstep games and 10^6 fuzzed vectors per game
# and variant, 40 conformance games per setup, and a libFuzzer run of the C decoders (clang from Debian, installed here).
test-deep: $(STAMP)
	dpkg -s clang libclang-rt-dev >/dev/null 2>&1 || (apt-get update && apt-get install -y clang libclang-rt-dev)
	$(BIN)/python -m pytest -q -n 2 -m deep tests/native tests/conformance

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

# Only what serving needs: the package without its test extra or sanitizer build, and the
# page's bundle.
serve:
	$(MAKE) --no-print-directory -j2 $(SERVE_STAMP) $(WEB_BUNDLE)
	$(BIN)/meeplemind serve $(ARGS)

# The TypeScript client's tests alone: a server started by pytest, then `npm test` against
# it (tsc, then node's test runner).
test-typescript: $(STAMP) $(WEB_BUNDLE)
	$(BIN)/python -m pytest -q tests/client/test_typescript.py

# Refit every game's evaluation network on C self-play (tools/fit_evaluation.py, a few minutes
# on 2 cores) into its native/evaluation_<game>.json; the next `make install` compiles it in.
fit-evaluation: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[fit]'
	$(BIN)/python -W ignore::UserWarning tools/fit_evaluation.py --write

bench: $(STAMP)
	$(BIN)/meeplemind bench

loadtest: $(STAMP)
	$(BIN)/python -m loadtest.run --users $(USERS) --spawn-rate $(SPAWN_RATE) --duration $(DURATION) \
		--workers $(WORKERS) --processes $(PROCESSES) $(LOADTEST_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info native/_mm*.so native/_mm*.c $(WEB_BUNDLE) $(TS)/node_modules $(TS)/src/gen $(TS)/dist
