#!/usr/bin/env bash
# Installs the workspace exactly as the lockfile says (a lockfile out of step with a package.json
# fails here rather than installing something else), on the machine's Node.js.
set -euo pipefail
cd "$(dirname "$0")/../.."
node --version
npx -y pnpm@10.34.9 install --frozen-lockfile
