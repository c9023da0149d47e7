# Two commands: `make run` (set up and start the server) and `make test` (the whole suite).
# The suite runs on three workers (pytest-xdist) on CI's two cores, a test file per worker at a
# time: every test starts its own server on free ports with its own data folder, so files do not
# share anything. Most wire tests wait on the network and on game clocks rather than compute (a
# two-worker run kept the cores 75% busy), so a third worker fills the waits.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# setup.py compiles these (Cython) at install: an edit reinstalls, so `make test` runs it compiled.
COMPILED := games/coup/engine.py games/coup/bot.py

.PHONY: run test bench setup clean precompile migration

$(STAMP): pyproject.toml setup.py $(COMPILED)
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip >/dev/null 2>&1 || true
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

# Flags for `korchma serve` pass through: make run ARGS="--telnet-port 4001 --log-level DEBUG".
ARGS ?=
run: $(STAMP)
	$(BIN)/korchma serve --config config.toml $(ARGS)

test: $(STAMP)
	$(MAKE) -s precompile
	$(BIN)/python -m pytest -q -p no:cacheprovider -n 3 --dist loadfile --no-loadscope-reorder

# Bytecode and parsed catalogs, written once, so the hundreds of servers the suite starts do not
# each compile every module and parse every catalog again (even where PYTHONDONTWRITEBYTECODE is set).
precompile: $(STAMP)
	$(BIN)/python -m compileall -q server world commands games tests bench >/dev/null
	$(BIN)/python -m world.i18n

bench: $(STAMP)
	$(BIN)/python bench/run_all.py
	$(BIN)/python bench/coup_bench.py
	$(BIN)/python bench/soak_tables.py
	$(BIN)/python bench/logins.py
	$(BIN)/python bench/text_bench.py
	$(BIN)/python bench/table_output_bench.py
	$(BIN)/python bench/server_starts.py

# The next schema migration, after a change to world/models.py: `make migration NAME=add_x` writes
# world/migrations/NNNN_add_x.py with tortoise's makemigrations (docs/migrations.md).
migration: $(STAMP)
	@test -n "$(NAME)" || { echo "usage: make migration NAME=what_changed" >&2; exit 2; }
	$(BIN)/tortoise makemigrations -n $(NAME)

# Never data/: it holds the database and the SSH host key (README, "Two commands").
clean:
	rm -rf $(VENV) build *.egg-info
	find games -name '*.so' -o -name '*.source-sha256' | xargs rm -f
