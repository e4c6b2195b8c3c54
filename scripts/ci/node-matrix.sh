#!/usr/bin/env bash
# The suite on every supported Node.js major (scripts/test-node-matrix.mjs) against the PostgreSQL
# at DATABASE_URL, after a build. Usage: scripts/ci/node-matrix.sh [major...]
# With majors (e.g. `22`), only those: a CI service that gives each major its own job passes the
# job's own, so that job runs the suite once, on its own Node.js. The files that do not depend on
# the Node.js major (scripts/test-once.mjs) are left to the README run (--skip-once).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${DATABASE_URL:-}" ]; then
  echo "node-matrix.sh: DATABASE_URL is not set; point it at a PostgreSQL database the tests may use" >&2
  exit 2
fi
only=()
for major in "$@"; do only+=(--only "$major"); done
npx -y pnpm@10.34.9 test:all-nodes ${only[@]+"${only[@]}"} --skip-once
