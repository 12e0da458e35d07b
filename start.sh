#!/usr/bin/env bash
# start.sh [ARGS...] — set up this checkout (quick when nothing changed), then
# run the companion's main job. ARGS are passed on to the main job.
set -euo pipefail
cd -- "$(dirname -- "${BASH_SOURCE[0]}")"

# Setup chatter goes to stderr so the main job's stdout stays clean.
./deploy/setup.sh >&2

# MAIN JOB: the table service for the phones (Ctrl-C stops it). ARGS go to `companion serve`,
# for example ./start.sh --port 8080.
exec .venv/bin/companion serve "$@"
