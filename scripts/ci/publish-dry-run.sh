#!/usr/bin/env bash
# What `npm publish` would send for every package, without publishing (scripts/publish-dry-run.mjs
# packs the built packages and runs `npm publish --dry-run` over the tarballs), after a build.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f scripts/publish-dry-run.mjs ]; then
  echo "::warning::scripts/publish-dry-run.mjs is not in this checkout; the publish dry run did not run"
  exit 0
fi
node scripts/publish-dry-run.mjs
