# Two commands do everything on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export UV_CACHE_DIR := $(CURDIR)/.cache/uv

.PHONY: setup demo test lint typecheck pytest sdk-venv vscode e2e fuzz bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]'
	touch $@

sdk-venv: setup
	scripts/sdk-venv.sh >/dev/null

demo: setup
	@echo "== evalsubmit check examples/ (planted mistakes are expected) =="
	@$(BIN)/evalsubmit check examples/; rc=$$?; [ $$rc -le 1 ] || exit $$rc

lint: setup
	$(BIN)/ruff check server tests benchmarks
	$(BIN)/ruff format --check server tests benchmarks

typecheck: setup
	$(BIN)/mypy

pytest: setup sdk-venv
	$(BIN)/pytest -q

test: lint typecheck pytest

clean:
	rm -rf $(VENV) build dist *.egg-info
