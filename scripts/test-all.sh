#!/usr/bin/env bash
# Every test: type check, lint, unit + API tests (embedded database, and PostgreSQL when
# TEST_DATABASE_URL is set), then browser tests against the production build.
set -euo pipefail
cd "$(dirname "$0")/.."
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
bash scripts/ensure-chromium.sh
echo "== type check"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
echo "== unit and API tests"
TEST_PHASE=api vitest run --reporter=default --reporter=json --outputFile.json="$results/api.json"
echo "== production build"; npm run --silent build
echo "== browser tests"
TEST_PHASE=e2e vitest run --reporter=default --reporter=json --outputFile.json="$results/e2e.json"
node scripts/summarize-tests.ts "$results/api.json" "$results/e2e.json"
