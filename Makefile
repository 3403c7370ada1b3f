# meeplemind: `make serve` and `make test` are the whole Quick start.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
BUILD_INPUTS := pyproject.toml setup.py $(wildcard native/*.c native/*.h native/cdef/*.h native/*.py proto/meeplemind/v1/*.proto)

.PHONY: install test test-slow serve bench clean

$(STAMP): $(BUILD_INPUTS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

serve: $(STAMP)
	$(BIN)/meeplemind serve $(ARGS)

bench: $(STAMP)
	$(BIN)/meeplemind bench

clean:
	rm -rf $(VENV) build *.egg-info native/_mm*.so native/_mm*.c
