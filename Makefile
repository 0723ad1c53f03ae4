# The two commands of the README: `make run` and `make test`.
# Each bootstraps its own virtual environment on a fresh machine: `make run`
# installs what running needs, `make test` adds the test stack and the
# system packages the tests use (PostgreSQL, Debian's chromium, nginx).
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
RUN_STAMP = $(VENV)/.installed-run
DEV_STAMP = $(VENV)/.installed-dev
# the engine modules mypyc compiles (setup.py); rebuilt whenever their source changes
COMPILED_SRC = src/fido/engine/table.py src/fido/engine/game.py src/fido/engine/results.py \
               src/fido/engine/movegen.py src/fido/engine/rollout.py src/fido/engine/dealing.py \
               src/fido/engine/tiles.py src/fido/engine/plan.py src/fido/engine/_core.c
COMPILED     = src/fido/.compiled
# the interface's translations (src/fido/locale/*/LC_MESSAGES/*.po), compiled for gettext
CATALOGS = $(patsubst %.po,%.mo,$(wildcard src/fido/locale/*/LC_MESSAGES/*.po))

.PHONY: run test test-suite test-web test-rest system-deps screenshots lint bench pure-test clean i18n pot

# running: fido and its dependencies, plus mypy and setuptools to compile the engine
$(RUN_STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[build]'
	touch $@

# testing: the test stack on top (pytest, ruff, Playwright, the research frameworks...)
$(DEV_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

$(COMPILED): $(RUN_STAMP) $(COMPILED_SRC)
	$(BIN)/python setup.py --quiet build_ext --inplace
	touch src/*__mypyc*.so src/fido/engine/*.so $@  # mypyc skips unchanged C (e.g. docstring edits)

%.mo: %.po $(RUN_STAMP)
	$(BIN)/pybabel --quiet compile -i $< -o $@

# the messages of the code, extracted: build/fido.pot (Python, templates), build/fido_js.pot
# (the page scripts); tests/web/test_catalogs.py extracts them too, to compare with the catalogs
POT_DIR ?= build
pot:
	mkdir -p $(POT_DIR)
	$(BIN)/pybabel --quiet extract -F babel.cfg -k N_ -k _h --add-location file --sort-by-file \
		--project fido -o $(POT_DIR)/fido.pot src/fido
	$(BIN)/pybabel --quiet extract -F babel-js.cfg --no-default-keywords -k t -k nt:1,2 \
		--add-location file --sort-by-file --project fido -o $(POT_DIR)/fido_js.pot src/fido

# after changing a sentence: the catalogs take the code's messages (new ones untranslated,
# which `make test` refuses until they are translated: docs/translating.md)
I18N_DEPS ?= $(RUN_STAMP)
i18n: $(I18N_DEPS)
	$(MAKE) -s pot
	for lang in $$(ls src/fido/locale); do \
		for domain in fido fido_js; do \
			po=src/fido/locale/$$lang/LC_MESSAGES/$$domain.po; \
			if [ -f $$po ]; then \
				$(BIN)/pybabel --quiet update -i build/$$domain.pot -o $$po -l $$lang \
					--no-fuzzy-matching --ignore-obsolete; \
			else $(BIN)/pybabel --quiet init -i build/$$domain.pot -o $$po -l $$lang; fi; \
		done; \
	done

# what `make run` builds (the environment, the compiled engine, the catalogs), without
# starting a server: a release directory of docs/deploy.md
.PHONY: build
build: $(COMPILED) $(CATALOGS)

# the web app and the server on ./fido.db (SQLite); open the address it prints
run: $(COMPILED) $(CATALOGS)
	$(BIN)/fido serve --host $(HOST) --port $(PORT)

# what the tests need from the system, installed with apt-get when missing (as root
# on Debian, e.g. CI): PostgreSQL (the store tests run on it too) and chromium (the
# browser the web tests drive, at /usr/bin/chromium unless FIDO_CHROMIUM says), nginx and
# openssl (tests/server/test_deploy_nginx.py: the proxy terminating TLS, its certificate),
# promtool (tests/server/test_alert_rules.py; Debian's prometheus package, without the
# node exporter it recommends), libfaketime (tests/server/test_turn_based.py: days pass
# in seconds for a real server process)
system-deps:
	@missing=""; lean=""; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null \
		|| missing=" postgresql"; \
	[ -x "$${FIDO_CHROMIUM:-/usr/bin/chromium}" ] || missing="$$missing chromium"; \
	[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || missing="$$missing nginx"; \
	command -v openssl >/dev/null || missing="$$missing openssl"; \
	command -v promtool >/dev/null || lean=" prometheus"; \
	ls /usr/lib/*/faketime/libfaketime.so.1 >/dev/null 2>&1 || missing="$$missing libfaketime"; \
	if [ -n "$$missing$$lean" ]; then \
		if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
			echo "installing$$missing$$lean for the tests (apt-get)"; \
			export DEBIAN_FRONTEND=noninteractive; \
			apt-get update -qq && apt-get install -y -qq $$missing >/dev/null \
				&& apt-get install -y -qq --no-install-recommends $$lean >/dev/null; \
		else \
			echo "note: the tests want$$missing$$lean; install it (apt-get install$$missing$$lean)"; \
		fi; \
	fi

# everything, four parts side by side (their output as it comes): the checks that read
# the code, the front ends' tests (web pages, terminal), the other tests, the pure engine's run.
# The tests wait on browsers, servers and clocks much of their time: two halves, each with
# its own throwaway PostgreSQL, fill the machine's two cores where one left them idle
test: system-deps $(DEV_STAMP) $(COMPILED) $(CATALOGS)
	$(MAKE) --no-print-directory -j4 lint test-web test-rest pure-test

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/mypy
	$(BIN)/lint-imports  # the architecture: pyproject.toml's [tool.importlinter]

# the whole suite, the two halves one after the other (+ a throwaway PostgreSQL if installed)
test-suite: test-web test-rest

# the front ends' tests: the web pages in chromium and the terminal's commands (the two
# halves take about as long: the other tests were 26 of 28.5 minutes with tests/cli)
test-web: $(DEV_STAMP) $(COMPILED) $(CATALOGS)
	$(BIN)/python tests/with_postgres.py $(BIN)/pytest -p no:cacheprovider tests/web tests/cli

test-rest: $(DEV_STAMP) $(COMPILED) $(CATALOGS)
	$(BIN)/python tests/with_postgres.py $(BIN)/pytest -p no:cacheprovider --ignore=tests/web \
		--ignore=tests/cli

# the engine's modules as plain Python (the compiled ones are what the suite runs)
pure-test: $(DEV_STAMP)
	FIDO_FORCE_PURE=1 $(BIN)/pytest -p no:cacheprovider tests/engine/test_golden.py \
		tests/engine/test_errors.py tests/engine/test_notation.py tests/engine/test_properties.py \
		tests/engine/test_undo_chance.py tests/engine/test_hostile_input.py \
		tests/engine/test_position.py tests/engine/test_rollout.py tests/engine/test_plan.py \
		tests/engine/test_native.py tests/engine/test_kernel.py tests/engine/test_dice.py

# docs/screenshots/: the lobby, two tables, turn-based play, the ranking pages, an event, the German pages, a match,
# its rematch vote and the queue, the first lesson, a puzzle, the board analysis, at phone and desktop size
screenshots: system-deps $(DEV_STAMP) $(COMPILED) $(CATALOGS)
	PYTHONPATH=tests $(BIN)/python tools/screenshots/web_screenshots.py docs/screenshots
	PYTHONPATH=tests $(BIN)/python tools/screenshots/ranking_screenshots.py docs/screenshots
	PYTHONPATH=tests $(BIN)/python tools/screenshots/event_screenshots.py docs/screenshots
	PYTHONPATH=tests $(BIN)/python tools/screenshots/german_screenshots.py docs/screenshots
	PYTHONPATH=tests $(BIN)/python tools/screenshots/turn_based_screenshots.py docs/screenshots
	PYTHONPATH=tests $(BIN)/python tools/screenshots/learn_screenshots.py docs/screenshots
	FIDO_SHOTS=docs/screenshots $(BIN)/pytest -q tests/web/test_web_match.py tests/web/test_web_queue.py \
		tests/web/test_web_analysis.py::test_the_replay_shows_what_each_move_cost

$(VENV)/.installed-bench: $(DEV_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

bench: $(COMPILED) $(CATALOGS) $(VENV)/.installed-bench
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) build .mypy_cache .pytest_cache .ruff_cache .hypothesis .import_linter_cache \
		.grimp_cache $(COMPILED) $(CATALOGS)
	find src -name '*.so' -delete
