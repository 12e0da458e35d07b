#!/usr/bin/env bash
# start.sh [ARGS...] — set up this checkout (quick when nothing changed), then
# run the companion's main job. ARGS are passed on to the main job.
set -euo pipefail
cd -- "$(dirname -- "${BASH_SOURCE[0]}")"

# Setup chatter goes to stderr so the main job's stdout stays clean.
./deploy/setup.sh >&2

# MAIN JOB — the one line to change (e.g. to `.venv/bin/companion serve "$@"`):
exec .venv/bin/companion replay --log fixtures/transcripts/captains_gambit/puck-wins-round-12.jsonl "$@"
