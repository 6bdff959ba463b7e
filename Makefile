# Foursquare Daily: `make help` lists the targets.

.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

PORT ?= 8000
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test

VENV ?= .venv
PY := $(VENV)/bin/python
# The stamp is newer than pyproject.toml once the venv holds what pyproject.toml asks for.
VENV_STAMP := $(VENV)/.installed
# Defined before any rule names it: a rule's prerequisites are expanded as make reads it.
NODE_STAMP := node_modules/.installed
BOOTSTRAP_PYTHON := $(shell command -v python3.11 2>/dev/null || command -v python3)

.PHONY: help run static test lint test-python test-sqlite test-js test-e2e chromium promtool haproxy bench

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z0-9-]+:.*## / {printf "  make %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# uv makes the venv and installs into it: a fresh clone's install takes seconds rather than half a
# minute (docs/OPERATIONS.md, "A first start"). The pinned uv is installed once per machine by
# pip into a folder of its own outside the checkout, beside uv's own cache of the wheels, so
# every clone after the first reuses both (UV=uv takes the one on PATH instead).
UV_VERSION := 0.13.9
UV_HOME ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/foursquare-daily/uv-$(UV_VERSION)
UV ?= $(UV_HOME)/bin/uv
# uv's own installer downloads a binary from outside the package registries; pip brings the same
# binary from PyPI. Installed into a folder of its own, then renamed into place, so two makes
# bootstrapping at once never see half of it.
$(UV_HOME)/bin/uv:
	@mkdir -p $(dir $(UV_HOME))
	$(BOOTSTRAP_PYTHON) -m pip install -q --disable-pip-version-check --root-user-action=ignore --target $(UV_HOME).$$$$ uv==$(UV_VERSION) \
	  && (mv -T $(UV_HOME).$$$$ $(UV_HOME) 2>/dev/null || rm -rf $(UV_HOME).$$$$)
	@test -x $@

$(VENV_STAMP): pyproject.toml | $(filter $(UV_HOME)/bin/uv,$(UV))
	@test -x $(PY) || $(UV) venv -q --python $(BOOTSTRAP_PYTHON) $(VENV)
	$(UV) pip install -q --python $(PY) -e '.[dev]'
	@touch $@

# `exec` makes gunicorn (tuned in gunicorn.conf.py: uvicorn workers serving server.asgi) the
# process make waits on, so a SIGTERM that make forwards stops it gracefully. Pages, the API and
# the live sockets on one port. SQLite under data/ unless DATABASE_URL is set; the in-memory
# channel layer unless REDIS_URL is.
# migrate runs beside collectstatic, a first start's two longest steps on two cores at once, and
# the server starts once both are done. Make runs each prerequisite's recipe in a shell of its
# own, so migrate's exit status comes back through a file.
MIGRATE_STATUS := $(shell mktemp -u "$${TMPDIR:-/tmp}/foursquare-migrate.XXXXXX")
.PHONY: migrate-begin
migrate-begin: $(VENV_STAMP)
	@echo '$(PY) manage.py migrate --noinput &'
	@($(PY) manage.py migrate --noinput; echo $$? > $(MIGRATE_STATUS)) &

run: $(VENV_STAMP) migrate-begin static ## Serve pages, API and sockets on http://127.0.0.1:8000 (PORT=..., DATABASE_URL=..., REDIS_URL=...)
	@while [ ! -s $(MIGRATE_STATUS) ]; do sleep 0.1; done; \
	  status=$$(cat $(MIGRATE_STATUS)); rm -f $(MIGRATE_STATUS); \
	  test "$$status" = 0 || { echo "migrate failed ($$status)" >&2; exit 1; }
	exec $(VENV)/bin/gunicorn --bind 127.0.0.1:$(PORT)

# collectstatic hashes, rewrites and compresses every file (seconds), so it runs again only when
# something it collects changed: the manifest it writes last is older than a source. The
# server serves the same folder (FOURSQUARE_STATIC_ROOT, default staticfiles/).
STATIC_ROOT := $(or $(FOURSQUARE_STATIC_ROOT),staticfiles)
STATIC_SOURCES := $(shell find frontend -type f) server/core/storage.py server/settings.py
$(STATIC_ROOT)/staticfiles.json: $(VENV_STAMP) $(STATIC_SOURCES)
	$(PY) manage.py collectstatic --noinput --verbosity 0
	@touch $@

static: $(STATIC_ROOT)/staticfiles.json ## Collect the front end's files for the server (only when one changed)

test: lint test-python test-sqlite test-js test-e2e ## Lint, then run every test suite (needs PostgreSQL; TEST_DATABASE_URL=...)

# Python keeps the bytecode it compiles (the venv's packages, server/, and pytest's rewritten
# test modules) even where the environment says not to (PYTHONDONTWRITEBYTECODE=1, as in the
# Dockerfile and some CI images): the tests start dozens of Python processes (each pass's
# workers, every real server's, `make run`'s), and without it each compiled Django, DRF and
# the tests again, 1.5 s of CPU a server process and 7-10 s a pytest worker's collection.
# An empty value is Python's "unset"; the checkout's own .venv and __pycache__ are git-ignored.
test lint test-python test-sqlite test-js test-e2e: export PYTHONDONTWRITEBYTECODE =

lint: $(VENV_STAMP) ## Check the code with ruff, the types with mypy, the tests' assertions and waits, and the layering with import-linter (docs/TESTING.md, docs/ARCHITECTURE.md)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict foursquare spitemalice fairness
	$(VENV)/bin/mypy server
	$(PY) tests/check_tests.py
	$(VENV)/bin/lint-imports

# The tests run in parallel processes (pytest-xdist), each with a test database of its own: three
# keep two cores busy while some wait on a browser or a server. A file's tests stay together in
# one process (the live tests share a server per file); the browser's are spread one by one.
# TEST_WORKERS=0 runs them all in the one process, as a debugger wants.
TEST_WORKERS ?= 3
PARALLEL = -n $(TEST_WORKERS) --dist
# Whole files in the order tests/conftest.py gives them (those marked `long` first): pytest-xdist
# would otherwise hand out the files with the most tests first, and a file of one long test
# last, where it ran on alone for 30 s while the other workers sat idle (docs/TESTING.md).
FILES_IN_ORDER = loadfile --no-loadscope-reorder
# Each pass ends with its slowest tests (setup, call and teardown apart): where the suite's
# time goes, in every run's log (docs/TESTING.md, "The suite's time").
SLOWEST = --durations=15 --durations-min=5

test-python: $(VENV_STAMP) promtool haproxy ## Run pytest against PostgreSQL at TEST_DATABASE_URL (TEST_WORKERS=3)
	DATABASE_URL='$(TEST_DATABASE_URL)' $(PY) -m pytest --ignore=tests/e2e $(SLOWEST) $(PARALLEL) $(FILES_IN_ORDER)

# The embedded default that `make run` serves: the modules marked `sqlite`, those that reach code
# which differs by database, less their tests marked `postgresql` (tests/conftest.py says why).
# The database files are scratch ones, one per worker, in a folder of this run's own: two runs on
# one machine (two checkouts) once shared a fixed folder, and each deleted the other's databases.
test-sqlite: $(VENV_STAMP) ## Run the server's tests that differ by database again on SQLite, the embedded default
	@scratch=$$(mktemp -d "$${TMPDIR:-/tmp}/foursquare-sqlite-tests.XXXXXX") && \
	echo "SQLite test databases in $$scratch" && \
	DATABASE_URL="sqlite:///$$scratch/db.sqlite3" $(PY) -m pytest tests/server -m sqlite -p no:cacheprovider $(PARALLEL) $(FILES_IN_ORDER); \
	status=$$?; rm -rf "$$scratch"; exit $$status

# tests/asyncapi/: the sockets' AsyncAPI document as the reference parser (@asyncapi/parser,
# installed by `npm ci`) reads it.
test-js: $(VENV_STAMP) $(NODE_STAMP) ## Unit-test the front end's pure modules, and parse the AsyncAPI document, with Node's test runner
	$(PY) tests/frontend/sm_table_fixtures.py tests/frontend/.generated/sm-matches.json
	$(PY) tests/frontend/fairness_fixtures.py tests/frontend/.generated/fairness.json
	$(PY) tests/asyncapi/write_document.py tests/asyncapi/.generated/asyncapi.json
	node --test tests/frontend/ tests/asyncapi/

# Debian's Chromium, not a browser downloaded by Playwright: package registries are reachable
# where the tests run, browser downloads are not. The tests drive its headless shell
# (chromium-headless-shell, the same build's "old headless" browser, which Playwright itself uses
# for headless runs): the same pages for a quarter less CPU than the full browser in its headless
# mode (docs/TESTING.md, "The suite's time"). chromium stays beside it for CHROMIUM=/usr/bin/chromium.
chromium: ## Install Debian's chromium and its headless shell for the end-to-end tests when missing
	@(command -v chromium >/dev/null && command -v chromium-headless-shell >/dev/null) || \
	(apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-headless-shell)

# axe-core, which the browser tests inject to check each screen's accessibility, and
# @asyncapi/parser, which `make test-js` runs on the AsyncAPI document: installed from
# package-lock.json by `npm ci` when node_modules is missing or older than the lock (npm itself
# from Debian when it is missing). The front end has no build step and ships nothing of them.
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y npm)
	npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

# Debian's prometheus package for its promtool, which checks /metrics' output
# (tests/server/test_metrics.py); only the tool is used, no Prometheus server is started.
promtool: ## Install Debian's prometheus package (promtool) for the metrics' test when it is missing
	@command -v promtool >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus)

# Debian's haproxy, whose own check reads the cluster's cluster/haproxy.cfg
# (tests/cluster/test_compose.py); `make cluster` starts it, the tests only check the config.
haproxy: ## Install Debian's haproxy for the cluster config's test when it is missing
	@command -v haproxy >/dev/null || test -x /usr/sbin/haproxy || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends haproxy)

test-e2e: $(VENV_STAMP) chromium $(NODE_STAMP) ## Play the browser app in headless Chromium against a live server
	DATABASE_URL='$(TEST_DATABASE_URL)' $(PY) -m pytest tests/e2e $(SLOWEST) $(PARALLEL) load

bench: $(VENV_STAMP) ## Time the game engines (Foursquare, then Spite & Malice)
	$(PY) -m foursquare.bench
	$(PY) -m spitemalice.bench

# 400 games per pairing: each house-bot level against the greedy and lookahead baselines (expert
# takes tens of milliseconds a turn, eight times hard's: docs/SPITE_MALICE_BOT.md).
BOT_BENCH_ARGS ?= --games 400 --processes 2
.PHONY: bench-bot
bench-bot: $(VENV_STAMP) ## Measure the Spite & Malice house bot's strength and speed per level
	$(PY) -m spitemalice.bot_bench $(BOT_BENCH_ARGS)

# The rate limiter's cost per action, in Python and in Redis (REDIS_URL, default the tests' Redis).
.PHONY: bench-limiter
bench-limiter: $(VENV_STAMP) ## Time the rate limiter's check as an action makes it (needs Redis)
	$(PY) -m server.api.limiter_bench

# What a request's metrics and log line cost a move: the CPU per move with and without them, in
# a database of its own (dropped and created again on each run).
BENCH_MOVES_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/foursquare_move_bench
.PHONY: bench-moves
BENCH_MOVES_COMPARE ?= observation
bench-moves: $(VENV_STAMP) ## Time a move's CPU with and without its metrics and log line (BENCH_MOVES_COMPARE=pages-only: the browser's middleware on every path or the pages only)
	$(PY) -m server.foursquare.move_bench --compare '$(BENCH_MOVES_COMPARE)' --database-url '$(BENCH_MOVES_DATABASE_URL)'

# A Spite & Malice action's CPU against a Foursquare move's, in process (friend matches, bot
# matches, practice moves in turn), in a database of its own (dropped and created again on
# each run), with Redis as cache and channel layer as make load serves.
BENCH_ACTIONS_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/spite_malice_action_bench
.PHONY: bench-actions
bench-actions: $(VENV_STAMP) ## Time a Spite & Malice action's CPU against a Foursquare move's, in process (BENCH_ACTIONS_DATABASE_URL=..., BENCH_ACTIONS_REDIS_URL=..., BENCH_ACTIONS_ARGS=--reads: a day board's and a match page's reads too)
	$(PY) -m server.spitemalice.action_bench --database-url '$(BENCH_ACTIONS_DATABASE_URL)' $(BENCH_ACTIONS_ARGS)

# Its own database, dropped and created again on each run: never the tests' one.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/foursquare_bench
.PHONY: bench-boards
bench-boards: $(VENV_STAMP) ## Time the leaderboards with 1,000,000 dailies (BENCH_DATABASE_URL=...)
	$(PY) -m server.foursquare.board_bench --database-url '$(BENCH_DATABASE_URL)'

# Load tools stay out of the test environment: only these targets install them.
LOAD_STAMP := $(VENV)/.installed-load
$(LOAD_STAMP): $(VENV_STAMP) pyproject.toml
	$(UV) pip install -q --python $(PY) -e '.[dev,load]'
	@touch $@

# The cluster on this machine (cluster/topology.py): HAProxy, two app nodes, two jobs workers,
# PgBouncer, a primary and its streaming replica, Redis; Debian's packages installed when missing.
.PHONY: cluster cluster-stop cluster-status
cluster: $(VENV_STAMP) static ## Start the cluster on loopback: HAProxy on :8480 in front of it all, Prometheus on :9490 (logs in /tmp/foursquare-cluster/logs, CLUSTER_DIR=...)
	$(PY) -m cluster start

cluster-stop: $(VENV_STAMP) ## Stop every part of the cluster and delete its folder
	$(PY) -m cluster stop

cluster-status: $(VENV_STAMP) ## Which parts of the cluster are up
	$(PY) -m cluster status

.PHONY: load drill backup restore
load: $(LOAD_STAMP) ## Benchmark and audit, Foursquare, Spite & Malice, then races: LOAD_GAME=all|both|foursquare|spite-malice|races LOAD_SECONDS=60 LOAD_APP=asgi|wsgi LOAD_TOPOLOGY=single|cluster (needs PostgreSQL, Redis)
	$(PY) -m loadtest.run

drill: $(LOAD_STAMP) ## Fault drills under load, both games: a worker killed, PostgreSQL restarted, Redis stopped; the clocks with the jobs worker stopped or busy; then on the cluster a node and a jobs worker killed, PgBouncer restarted, the replica and Redis stopped, the replica lagging (DRILLS="sm-worker ..." picks)
	$(PY) -m loadtest.drills

# pg_dump's custom format: compressed, and pg_restore can pick tables or run in parallel.
BACKUP ?= backups/foursquare-$(shell date -u +%Y%m%dT%H%M%SZ).dump
backup: ## pg_dump DATABASE_URL to BACKUP (default backups/foursquare-<UTC time>.dump)
	@test -n '$(DATABASE_URL)' || (echo 'set DATABASE_URL' >&2; exit 2)
	@mkdir -p $(dir $(BACKUP))
	pg_dump --format=custom --no-owner --file='$(BACKUP)' '$(DATABASE_URL)'
	@echo 'backed up to $(BACKUP)'

restore: ## pg_restore BACKUP into the empty database RESTORE_DATABASE_URL
	@test -n '$(RESTORE_DATABASE_URL)' -a -f '$(BACKUP)' || (echo 'set BACKUP=file and RESTORE_DATABASE_URL' >&2; exit 2)
	pg_restore --no-owner --exit-on-error --dbname='$(RESTORE_DATABASE_URL)' '$(BACKUP)'

# A ring of aged accounts plays the pyramid (10, 30, 60 accounts) on its own database.
RING_BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/ratings_bench
.PHONY: bench-rings
bench-rings: $(VENV_STAMP) ## The ring's pyramid against the ratings' rules (docs/RATINGS.md)
	$(PY) -m server.spitemalice.ring_bench --database-url '$(RING_BENCH_DATABASE_URL)' $(RING_BENCH_ARGS)
