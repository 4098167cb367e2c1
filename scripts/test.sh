#!/usr/bin/env bash
# The test suite as CI runs it: the tests spread over the machine's cores (one worker per
# core, four at most; a test file's tests on one worker, so that its fixtures are built once),
# then the tests that kill, fill or time processes, servers and endpoints (marked `serial`) on
# their own, where no other test's load can slow them. Both parts run whatever the first
# gives; the exit status is the first failure's. With PI_TEST_DATABASE_URL (one server for
# every test) the tests run one at a time. Plain `.venv/bin/python -m pytest` runs them all in
# one process.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -n "${PI_TEST_DATABASE_URL:-}" ]; then
  exec .venv/bin/python -m pytest
fi
status=0
.venv/bin/python -m pytest -n auto --maxprocesses 4 --dist loadfile -m "not serial" || status=$?
.venv/bin/python -m pytest -m serial || { code=$?; [ "$status" -ne 0 ] || status=$code; }
exit "$status"
