#!/usr/bin/env bash
# Chromium for the skills client's browser test (Debian's package; playwright-core downloads no
# browser). Needs root and apt-get. Where it cannot be installed, that one test skips and says why,
# so this never fails the run.
set -uo pipefail
if [ ! -x /usr/bin/chromium ]; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } > /dev/null 2>&1 \
    || echo "chromium could not be installed; the browser test will be skipped"
fi
