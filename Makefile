# The two commands of the README: `make run` and `make test`.
# Each bootstraps its own virtual environment on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed-dev
# the engine modules mypyc compiles (setup.py); rebuilt whenever their source changes
COMPILED_SRC = src/fido/table.py src/fido/game.py src/fido/results.py \
               src/fido/movegen.py src/fido/rollout.py src/fido/dealing.py
COMPILED     = src/fido/.compiled

.PHONY: run test lint bench pure-test clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

$(COMPILED): $(STAMP) $(COMPILED_SRC)
	$(BIN)/python setup.py --quiet build_ext --inplace
	touch src/*__mypyc*.so src/fido/*.so $@  # mypyc skips unchanged C (e.g. docstring edits)

run: $(COMPILED)
	$(BIN)/fido play --save last-game.json

test: $(COMPILED)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/python tests/with_postgres.py $(BIN)/pytest  # + a throwaway PostgreSQL if installed
	FIDO_FORCE_PURE=1 $(BIN)/pytest tests/test_golden.py tests/test_errors.py tests/test_notation.py \
		tests/test_properties.py tests/test_undo_chance.py tests/test_hostile_input.py tests/test_position.py

$(VENV)/.installed-bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

bench: $(COMPILED) $(VENV)/.installed-bench
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) build .mypy_cache .pytest_cache .ruff_cache .hypothesis $(COMPILED)
	find src -name '*.so' -delete
