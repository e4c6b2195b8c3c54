#!/usr/bin/env bash
# The suite with the oldest supported MCP TypeScript SDK v1 release in place of the workspace's
# newest (scripts/test-sdk-matrix.mjs), against the PostgreSQL at DATABASE_URL, after a build.
# The release is the first of SDK_VERSIONS in scripts/test-sdk-matrix.mjs and the README's table.
# Usage: scripts/ci/sdk-matrix.sh [major]: with a Node.js major (e.g. `22`), on that Node.js,
# installed as the Node.js matrix installs it; without, on the machine's. The files that do not
# depend on the SDK release (scripts/test-once.mjs) are left to the README run (--skip-once).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${DATABASE_URL:-}" ]; then
  echo "sdk-matrix.sh: DATABASE_URL is not set; point it at a PostgreSQL database the tests may use" >&2
  exit 2
fi
node=()
if [ $# -gt 0 ]; then node=(--node "$1"); fi
npx -y pnpm@10.34.9 test:sdk-matrix --sdk 1.29.0 ${node[@]+"${node[@]}"} --skip-once
