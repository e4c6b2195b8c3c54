#!/usr/bin/env bash
# The differential test (the fast path against the SDK path) with 10,000 generated requests per era,
# many more than the suite's default run (which keeps its fixed seed), from a new seed each run so
# that CI explores new requests every time; the seed is printed first, and a failure prints the
# command that replays it. SKILLMOUNT_DIFF_SEED set beforehand replays a given seed. It tests the
# built packages: build first.
set -euo pipefail
cd "$(dirname "$0")/../.."
seed="${SKILLMOUNT_DIFF_SEED:-$(( (RANDOM << 15 | RANDOM) ))}"
echo "differential seed: $seed (replay: SKILLMOUNT_DIFF_SEED=$seed bash scripts/ci/differential.sh)"
# The file runs longer than the suite's default limit of 5 minutes per file on a loaded machine.
env SKILLMOUNT_DIFF_CASES=10000 SKILLMOUNT_DIFF_SEED="$seed" SKILLMOUNT_TEST_TIMEOUT_MS=1200000 node scripts/test.mjs test/differential
