#!/usr/bin/env bash
# test.sh [PYTEST_ARGS...] — set up with the test extra, then run ruff, mypy
# and pytest from the repo root. Runs every check; exits nonzero if any fails
# (including pytest exit 5, "no tests collected").
set -euo pipefail
cd -- "$(dirname -- "${BASH_SOURCE[0]}")"

./deploy/setup.sh --test

export VIRTUAL_ENV="$PWD/.venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"

failed=()
status=0
run() { # $1 = name, rest = command
    local name=$1 rc=0
    shift
    echo "test: $name: $*"
    "$@" || rc=$?
    if ((rc != 0)); then
        if [[ $name == pytest && $rc == 5 ]]; then
            failed+=("pytest (exit 5: no tests collected)")
        else
            failed+=("$name (exit $rc)")
        fi
        ((status != 0)) || status=$rc
    fi
}

run ruff .venv/bin/ruff check companion tests benchmarks tools training
run mypy .venv/bin/mypy
run pytest .venv/bin/python -m pytest "$@"

if ((${#failed[@]})); then
    echo "test: FAILED: ${failed[*]}" >&2
    exit "$status"
fi
# No line after pytest's own summary: CI reads that closing line.
