.PHONY: test test-fast check lint types dead shape cited lint-js types-js serve migrate

# Everything: the pure cores, the API, the store on SQLite and PostgreSQL, the bus on Redis, hub
# processes (kill -9, restarts, several processes) and the browser tests. What .ci/run calls.
test:
	python -m pip install -e '.[test]' && python -m pytest -q

# Everything that starts no process and no browser (the markers: tests/conftest.py), on every core
# (pytest-xdist; PYTEST_XDIST_AUTO_NUM_WORKERS=N sets how many), with the fuzzers at a fifth of
# their examples (`make test` runs all), the temporary files on /dev/shm where there is one
# (SQLite's fsync per commit costs nothing there, and no test here is about a power cut), and the
# assertion-rewritten test modules cached in __pycache__ even where PYTHONDONTWRITEBYTECODE is set
# (each worker rewrites them all otherwise: 5 s of CPU). docs/testing.md says more.
test-fast:
	CUEHUB_FUZZ_EXAMPLES=$${CUEHUB_FUZZ_EXAMPLES:-5} CUEHUB_FUZZ_EXAMPLES_WS=$${CUEHUB_FUZZ_EXAMPLES_WS:-40} \
	TMPDIR=$${TMPDIR:-$$(test -d /dev/shm -a -w /dev/shm && echo /dev/shm || echo /tmp)} PYTHONDONTWRITEBYTECODE= \
	python -m pytest -q -n auto --dist worksteal -m "not browser and not process"

# The gate .ci/run runs before the tests: lint, types, dead code, sizes, cited files; the pages' JS
# linted and type-checked too.
check: lint types dead shape cited lint-js types-js

lint:
	python -m ruff check hub tests bench clients/python .ci

types:
	python -m mypy

# A name vulture cannot see used goes in .ci/vulture_whitelist.py (read as part of .ci); none today.
dead:
	python -m vulture hub clients/python tests bench .ci --min-confidence 80

shape:
	python .ci/shape.py

# Every repository path a docstring or comment names exists.
cited:
	python .ci/cited_files.py

# The pages' JS (clients/web/js): ESLint (eslint.config.mjs: rules that find bugs, none about
# formatting) and TypeScript's checker over plain JS (jsconfig.json: lenient, no build, no emit).
# Both from the npm registry at the versions package-lock.json pins, installed by `npm ci` into
# node_modules/ when the lock file is newer than the last install (needs node and npm: .ci/run
# installs Debian's when they are missing).
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

lint-js: node_modules/.package-lock.json
	node_modules/.bin/eslint --max-warnings 0 clients/web/js

types-js: node_modules/.package-lock.json
	node_modules/.bin/tsc -p jsconfig.json

serve:
	cuehub serve

migrate:
	cuehub migrate
