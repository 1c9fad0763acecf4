#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests (test/web/*.browser.test.ts drive it
# through playwright-core, which downloads no browser). Idempotent.
set -euo pipefail

if ! command -v chromium >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
command -v chromium
