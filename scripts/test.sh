#!/usr/bin/env bash
# The test suite as CI runs it: the tests spread over the machine's cores (one worker per
# core, four at most; a test file's tests on one worker, so that its fixtures are built once),
# then the tests that kill, fill or time processes and servers (marked `serial`) on their own,
# where no other test's load can slow them. Plain `.venv/bin/python -m pytest` runs them all in
# one process.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pytest -n auto --maxprocesses 4 --dist loadfile -m "not serial"
.venv/bin/python -m pytest -m serial
