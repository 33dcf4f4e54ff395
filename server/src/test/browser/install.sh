#!/bin/sh
# Installs puppeteer-core here for RunBrowserTest: run by the server module's build (the profile browser-tests,
# where /usr/bin/chromium is) when node_modules/puppeteer-core is missing. Never fails the build: without npm,
# or when npm ci fails (offline), it says so and RunBrowserTest is skipped with the command to run.
cd "$(dirname "$0")" || exit 0
command="npm ci --prefix server/src/test/browser --no-audit --no-fund"
if ! command -v npm >/dev/null 2>&1; then
  echo "[WARNING] npm is not installed: RunBrowserTest will be skipped (install node and npm, then run: $command)"
  exit 0
fi
echo "[INFO] installing puppeteer-core for RunBrowserTest ($command)"
npm ci --no-audit --no-fund --loglevel=error \
  || echo "[WARNING] npm ci failed: RunBrowserTest will be skipped (run: $command)"
exit 0
