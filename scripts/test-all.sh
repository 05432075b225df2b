#!/usr/bin/env bash
# Every test: type check, lint (with format and dead-code checks), then the unit, API (embedded
# database, and PostgreSQL when TEST_DATABASE_URL is set) and process lanes, the fault lane (server
# processes on a PostgreSQL cluster and a Redis of its own, restarted, frozen and stopped under load,
# after a production build, whose JavaScript budgets and bench ratios are checked first), and the
# browser tests against that build. First, the lockfile must be the committed one.
set -euo pipefail
cd "$(dirname "$0")/.."
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
# The committed lockfile installs as it is: if `npm install` changed it, a fresh clone's tree is
# dirty and `npm ci` refuses it, so the change must be committed first.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && ! git diff --quiet HEAD -- package-lock.json; then
  echo "package-lock.json differs from the committed one (npm install changed it): commit it with the change to package.json."
  git --no-pager diff --stat HEAD -- package-lock.json
  exit 1
fi
bash scripts/ensure-chromium.sh
echo "== type check"; npm run --silent typecheck
echo "== lint, format and dead code"; npm run --silent lint
echo "== unit, service, API and process tests"
vitest run --project unit --project service --project 'api*' --project process --reporter=default --reporter=json --outputFile.json="$results/api.json"
# Built before the fault lane: its visitors' pages must go on being served while PostgreSQL is away.
echo "== production build"; npm run --silent build
echo "== bench guard: the site against a bare server, and Lighthouse, each within 10% of its target"
BENCH_ONLY=site BENCH_GUARD=1 node bench/run.ts
echo "== fault lane: PostgreSQL restarted and frozen, Redis stopped, SIGTERM, Stripe, SMTP and a full disk, all under load"
vitest run --project fault --reporter=default --reporter=json --outputFile.json="$results/fault.json"
echo "== browser tests"
vitest run --project 'e2e*' --reporter=default --reporter=json --outputFile.json="$results/e2e.json"
node scripts/summarize-tests.ts "$results/api.json" "$results/fault.json" "$results/e2e.json"
