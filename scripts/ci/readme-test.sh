#!/usr/bin/env bash
# The README's test command as a new user runs it (`pnpm install && pnpm test`: build, lint, import
# check, format check, type checks, the suite), with no DATABASE_URL or S3_ENDPOINT: the run starts one
# embedded PostgreSQL for its files, and the tests start their own S3-protocol server.
set -euo pipefail
cd "$(dirname "$0")/../.."
env -u DATABASE_URL -u S3_ENDPOINT -u S3_BUCKET bash -c 'npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 test'
