# Two commands do everything on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export UV_CACHE_DIR := $(CURDIR)/.cache/uv
export PIP_DISABLE_PIP_VERSION_CHECK := 1
# Some machines (this one's image among them) set PYTHONDONTWRITEBYTECODE=1: then no .pyc is
# ever cached and each of the hundreds of Python processes the tests start (every language
# server, CLI run, fake editor) compiles lsprotocol, pydantic, httpx and evalsubmit from source
# again: twice the CPU of a start with bytecode, which doubled the LSP suites' time. Python's
# default (write and reuse __pycache__, ignored by git) changes no result.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup demo test lint typecheck pytest sdk-venv vscode-unit vscode-e2e fuzz load bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]'
	touch $@

## The main job: check the bundled examples (exit 1 = findings, which the examples plant).
demo: setup
	@echo "== evalsubmit check examples/ (the examples plant every kind of mistake) =="
	@$(BIN)/evalsubmit check examples/; rc=$$?; [ $$rc -le 1 ] || exit $$rc

## Every test: lint, types, the Python suites (unit, SDK contract, LSP, real platform,
## robustness), the VS Code client's unit tests and its end-to-end test in a real VS Code.
test: lint typecheck pytest vscode-unit vscode-e2e

lint: setup
	$(BIN)/ruff check server tests benchmarks
	$(BIN)/ruff format --check server tests benchmarks
	$(BIN)/lint-imports --no-cache

typecheck: setup
	$(BIN)/mypy

sdk-venv: setup
	scripts/sdk-venv.sh >/dev/null

pytest: setup sdk-venv
	$(BIN)/pytest -q

vscode-unit: setup
	scripts/vscode-unit.sh --package

vscode-e2e: setup sdk-venv
	scripts/vscode-e2e.sh --with-platform

## Long runs, each its own command (not part of `make test`).
fuzz: setup
	scripts/fuzz.sh

load: setup
	scripts/load.sh

bench: setup
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build dist *.egg-info vscode-client/node_modules vscode-client/out
