#!/usr/bin/env bash
# The package as a consumer installs it: `npm pack`, the tarball installed into a new application with npm, and
# test-support/package-consumer.js run there on the Node whose bin folder is given (CI: Node 22, the oldest
# supported line; the test suite runs the same consumer on Node 24 against the checkout).
#   bash .ci/package-smoke.sh "$(bash .ci/node.sh 22)"
set -euo pipefail
cd "$(dirname "$0")/.."
NODE_BIN="${1:?usage: .ci/package-smoke.sh NODE_BIN_DIR}"
APP="$(mktemp -d /tmp/plumbline-smoke-XXXXXX)"
trap 'rm -rf "$APP"' EXIT
TARBALL="$(npm pack --silent --pack-destination "$APP" | tail -n 1)"
cp test-support/package-consumer.js "$APP/main.js"
# msw is an optional peer: an application that imports plumbline/msw installs it beside plumbline
MSW="msw@$(node -p 'require("./package.json").devDependencies.msw')"
cd "$APP"
echo '{"name":"consumer","type":"module","private":true}' > package.json
# the install runs on the Node under test, as a consumer's would: native addons resolve for its ABI
PATH="$NODE_BIN:$PATH" npm_config_nodedir="$(dirname "$NODE_BIN")" \
  npm install --no-audit --no-fund --prefer-offline --loglevel=error "./$TARBALL" "$MSW" >/dev/null
OUT="$("$NODE_BIN/node" main.js | tail -n 1)"
"$NODE_BIN/node" -e '
const out = JSON.parse(process.argv[1]);
const need = ["startMock", "startReference", "runConformance", "runFuzz", "runGate"];
const missing = need.filter((n) => !out.api.includes(n));
const problems = [
  ...missing.map((n) => `export ${n} missing`),
  out.usage?.usage === 3 ? null : `mock /usage answered ${JSON.stringify(out.usage)}`,
  out.handlers === 1 ? null : `msw handlers: ${out.handlers}`,
  out.operations > 0 ? null : "the contract has no operations",
  out.crawled?.status === 200 && String(out.crawled.content).includes("Some words.") ? null : `reference crawl: ${JSON.stringify(out.crawled)}`,
].filter(Boolean);
if (problems.length) { console.error("package smoke FAILED on Node " + process.version + ":\n  " + problems.join("\n  ")); process.exit(1); }
console.log(`package smoke passed on Node ${process.version}: ${out.api.length} exports, mock, MSW handlers and reference answered`);
' "$OUT"
