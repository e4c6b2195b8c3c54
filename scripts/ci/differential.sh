#!/usr/bin/env bash
# The differential test (the fast path against the SDK path) with 10,000 generated requests per era,
# many more than the suite's default run, from a fixed seed so a failure can be run again. It tests
# the built packages: build first.
set -euo pipefail
cd "$(dirname "$0")/../.."
env SKILLMOUNT_DIFF_CASES=10000 SKILLMOUNT_DIFF_SEED=7 node scripts/test.mjs test/differential
