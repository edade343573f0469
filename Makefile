.PHONY: test test-fast check lint types dead shape serve migrate

# Everything: the pure cores, the API, the store on SQLite and PostgreSQL, the bus on Redis, hub
# processes (kill -9, restarts, several processes) and the browser tests. What .ci/run calls.
test:
	python -m pip install -e '.[test]' && python -m pytest -q

# Everything that starts no hub process and no browser (see the markers in pyproject.toml), with
# the fuzzers at a fifth of their examples (they are half of this set's time; `make test` runs all).
test-fast:
	CUEHUB_FUZZ_EXAMPLES=$${CUEHUB_FUZZ_EXAMPLES:-5} CUEHUB_FUZZ_EXAMPLES_WS=$${CUEHUB_FUZZ_EXAMPLES_WS:-40} \
	python -m pytest -q -m "not browser and not process"

# The gate .ci/run runs before the tests: lint, types, dead code, sizes.
check: lint types dead shape

lint:
	python -m ruff check hub tests bench clients/python .ci

types:
	python -m mypy

# A name vulture cannot see used goes in .ci/vulture_whitelist.py (read as part of .ci); none today.
dead:
	python -m vulture hub clients/python tests bench .ci --min-confidence 80

shape:
	python .ci/shape.py

serve:
	cuehub serve

migrate:
	cuehub migrate
