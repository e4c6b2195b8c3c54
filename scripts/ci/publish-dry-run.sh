#!/usr/bin/env bash
# What `npm publish` would send for every package, without publishing (scripts/publish-dry-run.mjs
# packs the built packages and runs `npm publish --dry-run` over the tarballs), after a build.
set -euo pipefail
cd "$(dirname "$0")/../.."
# Built by an earlier step as a rule; built here when not (publish-dry-run.mjs refuses a stale dist/).
node scripts/dist-fresh.mjs || npx -y pnpm@10.34.9 build
node scripts/publish-dry-run.mjs
