# Two commands: `make run` (the whole site on http://127.0.0.1:8000) and `make test` (the whole suite).
PYTHON ?= $(shell for p in python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 12))' 2>/dev/null && { echo $$p; break; }; done)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Byte-code caches on whatever the shell says: with PYTHONDONTWRITEBYTECODE set, every pytest worker
# (assertion rewriting) and every daphne and Celery process the tests start compiled every module
# again, about 8 s of CPU per process on a 2-core machine (tests/README.md).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test install lint format clean bench

$(PY):
	@test -n "$(PYTHON)" || { echo "Ludopat needs Python 3.11 or 3.12 on PATH"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# uv installs what pip would, from the same index, in seconds rather than a minute (it resolves and
# downloads in parallel and keeps a cache); where it can't be had, pip does it.
$(STAMP): pyproject.toml | $(PY)
	@if $(PY) -m pip install --quiet uv; then \
		$(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[dev]'; \
	else \
		$(PY) -m pip install --quiet --upgrade pip && $(PY) -m pip install --quiet -e '.[dev]'; \
	fi
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(PY) -m ludopat.devserver

# The tests and every app's doctests (pyproject.toml's testpaths and --doctest-modules).
test: $(STAMP)
	$(PY) -m pytest --durations=20 $(PYTEST_ARGS)

# The edit-test loop: every test but the slow, integration and browser ones, and the apps' doctests, on
# all cores (pytest-xdist; each worker has its own test database and Redis database). SQLite and an
# embedded Redis unless DATABASE_URL/REDIS_URL say otherwise.
.PHONY: test-fast
test-fast: $(STAMP)
	$(PY) -m pytest -n auto -m "not slow and not integration and not browser" $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy  # [tool.mypy] in pyproject.toml: --strict on games/engine, annotated apps
	$(VENV)/bin/lint-imports  # [tool.importlinter] in pyproject.toml: the layers, one direction

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache
