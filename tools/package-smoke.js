#!/usr/bin/env node
// Each package works alone (issue 36): packed, installed by itself into an empty project with `npm install
// --omit=dev` (with the tarballs of the plumbline packages it depends on), on the Node whose bin folder is given,
// and every command and export it offers run once there, as a user would. No file of any tarball is a test,
// fixture or benchmark. `.ci/run` runs it on Node 22 and 24 after the tests:
//   node tools/package-smoke.js [--node-bin DIR] [--browser CHROMIUM] [--only mock,tools] [--keep]
// Exit 0 when every step passed, 1 naming the steps that did not.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { closureOf, filesOf, footprint, installInto, PACKAGES, packAll, ROOT, SCOPE } from "./packages.js";

const { values: args } = parseArgs({
  options: {
    "node-bin": { type: "string" },
    // a Chromium for the reference's screenshots (--chromium); default: the embedded one it installs
    browser: { type: "string" },
    only: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const nodeBin = args["node-bin"];
const node = nodeBin ? join(nodeBin, "node") : process.execPath;
const only = args.only ? args.only.split(",") : PACKAGES;
const work = mkdtempSync(join(tmpdir(), "plumbline-smoke-"));
/** @type {{ step: string; ok: boolean; detail: string }[]} */
const results = [];
/** @type {Set<import("node:child_process").ChildProcess>} */
const children = new Set();

/** @param {string} step @param {() => Promise<string | undefined | void> | string | undefined | void} fn */
async function check(step, fn) {
  const started = performance.now();
  try {
    const detail = (await fn()) ?? "";
    results.push({ step, ok: true, detail });
    console.log(`ok   ${step} (${((performance.now() - started) / 1000).toFixed(1)} s)${detail ? `: ${detail}` : ""}`);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    results.push({ step, ok: false, detail });
    console.log(`FAIL ${step}: ${detail}`);
  }
}

/**
 * Runs `plumbline ARGS` (the project's installed command) to its end; resolves with its exit code and output.
 * @param {string} dir @param {string[]} argv @param {number} [timeoutMs]
 * @returns {Promise<{ code: number | null; out: string }>}
 */
function run(dir, argv, timeoutMs = 240_000) {
  return new Promise((resolve) => {
    const child = spawn(node, [join(dir, "node_modules/.bin/plumbline"), ...argv], { cwd: dir, env: envFor() });
    children.add(child);
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, out });
    });
  });
}

/**
 * Starts a server command and resolves with its URL once it prints "listening on URL".
 * @param {string} dir @param {string[]} argv
 * @returns {Promise<{ url: string; stop: () => Promise<number | null>; output: () => string }>}
 */
function serve(dir, argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [join(dir, "node_modules/.bin/plumbline"), ...argv], { cwd: dir, env: envFor() });
    children.add(child);
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`did not start in 60 s: ${out.slice(-2000)}`));
    }, 60_000);
    const exited = new Promise((r) =>
      child.on("exit", (code) => {
        children.delete(child);
        r(code);
      }),
    );
    const onData = (/** @type {Buffer} */ d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          output: () => out,
          stop: async () => {
            child.kill("SIGTERM");
            return /** @type {Promise<number | null>} */ (exited);
          },
        });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    exited.then((code) => reject(new Error(`exited with ${code}: ${out.slice(-2000)}`)));
  });
}

function envFor() {
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, NO_COLOR: "1" };
  delete env.NODE_OPTIONS;
  if (nodeBin) env.PATH = `${nodeBin}:${env.PATH}`;
  return env;
}

/** @param {boolean} cond @param {string} message */
function expect(cond, message) {
  if (!cond) throw new Error(message);
}

/** Runs a module in the project with plain Node (no loader, no condition); resolves with its last stdout line. */
function script(/** @type {string} */ dir, /** @type {string} */ code) {
  const file = join(dir, `smoke-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, code);
  return new Promise((resolve, reject) => {
    const child = spawn(node, [file], { cwd: dir, env: envFor() });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) =>
      code === 0 ? resolve(out.trim().split("\n").pop() ?? "") : reject(new Error(`exit ${code}: ${err.slice(-2000)}`)),
    );
  });
}

// a page the reference crawls and screenshots
const site = createServer((_req, res) =>
  res
    .writeHead(200, { "content-type": "text/html" })
    .end("<html><head><title>Smoke</title></head><body><h1>Smoke page</h1><p>Some words to read.</p></body></html>"),
);
await new Promise((r) => site.listen(0, "127.0.0.1", () => r(undefined)));
const siteUrl = `http://127.0.0.1:${/** @type {import("node:net").AddressInfo} */ (site.address()).port}/page`;

console.log(`packing into ${work} (node ${node})`);
const tarballs = packAll(join(work, "tarballs"));
/** @type {Record<string, string>} */
const projects = {};
for (const name of only) {
  await check(`${name}: the tarball holds no test, fixture of a test or benchmark`, () => {
    const files = filesOf(tarballs[name]);
    const bad = files.filter(
      (f) => /(^|\/)test\/|\.test\.|bench/.test(f) || (f.endsWith(".ts") && !f.endsWith(".d.ts")),
    );
    expect(bad.length === 0, `${bad.length} files: ${bad.slice(0, 5).join(", ")}`);
    return `${files.length} files`;
  });
  await check(`${name}: installs alone (--omit=dev)`, () => {
    const specs = closureOf(name).map((n) => tarballs[n]);
    const { dir, seconds } = installInto(specs, { nodeBin, dir: mkdirp(join(work, name)) });
    projects[name] = dir;
    const f = footprint(dir);
    return `${f.megabytes.toFixed(1)} MB, ${f.packages} packages, ${seconds.toFixed(1)} s`;
  });
}

function mkdirp(/** @type {string} */ dir) {
  mkdirSync(dir, { recursive: true });
  return dir;
}

if (projects.contract)
  await check("contract: import, load the contract, validate a request", async () => {
    const out = await script(
      projects.contract,
      `import { loadContract, ERROR_CATALOGUE } from "${SCOPE}/contract";
const c = await loadContract();
console.log(JSON.stringify({ ops: c.operations.length, codes: Object.keys(ERROR_CATALOGUE).length }));`,
    );
    const { ops, codes } = JSON.parse(out);
    expect(ops > 5 && codes > 5, out);
    return `${ops} operations`;
  });

if (projects.cli)
  await check("cli: --help, and a command whose package is missing names it", async () => {
    const help = await run(projects.cli, ["--help"]);
    expect(help.code === 0 && help.out.includes("Usage: plumbline"), help.out);
    const mock = await run(projects.cli, ["mock"]);
    expect(
      mock.code === 2 && mock.out.includes(`npm install --save-dev ${SCOPE}/mock`),
      `exit ${mock.code}: ${mock.out}`,
    );
    expect(!/\n\s+at /.test(mock.out), `a stack trace: ${mock.out}`);
    return mock.out.trim();
  });

/** @type {{ url: string; stop: () => Promise<number | null> } | undefined} */
let mock;
if (projects.mock) {
  await check("mock: `plumbline mock` serves", async () => {
    mock = await serve(projects.mock, [
      "mock",
      "--port",
      "0",
      "--key",
      "smoke-key:100000000",
      "--key",
      "broke-key:0",
      "--rate-limit",
      "0",
    ]);
    const res = await fetch(`${mock.url}/search`, {
      method: "POST",
      headers: { authorization: "Bearer smoke-key", "content-type": "application/json" },
      body: JSON.stringify({ query: "plumbline" }),
    });
    expect(res.status === 200, `POST /search answered ${res.status}`);
    return mock.url;
  });
  await check("mock: startMock() from plain Node", async () => {
    const out = await script(
      projects.mock,
      `import { startMock } from "${SCOPE}/mock";
const m = await startMock({ port: 0, keys: [{ key: "k", credits: 3 }] });
const usage = await (await fetch(m.url + "/usage", { headers: { authorization: "Bearer k" } })).json();
await m.close();
console.log(JSON.stringify(usage));`,
    );
    expect(JSON.parse(out).usage === 3, out);
  });
  await check("mock: `plumbline edges -- CMD` runs a client once per edge", async () => {
    // a client that pays one search and reads it back: the edges of /search are exercised, the rest are not
    writeFileSync(
      join(projects.mock, "edges-client.mjs"),
      `const r = await fetch(process.env.PLUMBLINE_URL + "/search", { method: "POST",
  headers: { authorization: "Bearer " + process.env.PLUMBLINE_API_KEY, "content-type": "application/json" },
  body: JSON.stringify({ query: "plumbline" }) }).catch(() => null);
process.exit(r && r.status === 200 ? 0 : 1);`,
    );
    const list = await run(projects.mock, ["edges", "--list"]);
    expect(list.code === 0 && /rate-limited/.test(list.out), `--list: exit ${list.code}: ${list.out}`);
    const r = await run(projects.mock, [
      "edges",
      "--jobs",
      "2",
      "--report-dir",
      "edges-report",
      "--",
      node,
      "edges-client.mjs",
    ]);
    // a naive client: it fails the throttling edge (a 429 is not waited out) and passes others
    expect(r.code === 1 && /rate-limited/.test(r.out), `exit ${r.code}: ${r.out.slice(-2500)}`);
    expect(existsSync(join(projects.mock, "edges-report", "edges.json")), "no edges.json");
    return r.out.trim().split("\n").slice(-1)[0];
  });
  await check("mock: createMockHandlers() without msw names the package to add", async () => {
    const out = await script(
      projects.mock,
      `const { createMockHandlers } = await import("${SCOPE}/mock/msw");
try { await createMockHandlers(); console.log("created"); } catch (e) { console.log(e.message); }`,
    );
    expect(out.includes("npm install") && out.includes("msw"), out);
    return out;
  });
  await check("mock: createMockHandlers() with msw installed", async () => {
    const msw = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies.msw;
    installInto([...closureOf("mock").map((n) => tarballs[n]), `msw@${msw}`], { nodeBin, dir: projects.mock });
    const out = await script(
      projects.mock,
      `import { createMockHandlers } from "${SCOPE}/mock/msw";
const h = await createMockHandlers({ keys: [{ key: "k", credits: 3 }] });
console.log(h.handlers.length); await h.close();`,
    );
    expect(Number(out) >= 1, out);
  });
}

if (projects.tools) {
  const t = projects.tools;
  await check("tools: spec lint, spec types, spec diff", async () => {
    const lint = await run(t, ["spec", "lint"]);
    expect(lint.code === 0, `spec lint exit ${lint.code}: ${lint.out.slice(-1500)}`);
    const types = await run(t, ["spec", "types"]);
    expect(
      types.code === 0 && types.out.includes("export type paths"),
      `spec types exit ${types.code}: ${types.out.slice(-800)}`,
    );
    const doc = join(t, "node_modules", SCOPE, "contract/dist/openapi.yaml");
    const diff = await run(t, ["spec", "diff", doc, doc]);
    expect(diff.code === 0, `spec diff exit ${diff.code}: ${diff.out.slice(-800)}`);
  });
  if (mock) {
    const target = mock.url;
    const key = ["--target", target, "--api-key", "smoke-key"];
    await check("tools: conform against the mock", async () => {
      const r = await run(t, ["conform", ...key, "--broke-api-key", "broke-key"]);
      expect(r.code === 0, `exit ${r.code}: ${r.out.slice(-2500)}`);
      return r.out.trim().split("\n").pop();
    });
    await check("tools: fuzz against the mock", async () => {
      const r = await run(t, ["fuzz", ...key, "--runs", "50"]);
      expect(r.code === 0, `exit ${r.code}: ${r.out.slice(-2500)}`);
      return r.out.trim().split("\n").pop();
    });
    await check("tools: load against the mock, reports in ./reports/load", async () => {
      // the gate's budgets (no errors, every answer within its time), not the mock's measured speed ones: the smoke runs
      // beside the tests, and no step may depend on the machine's speed
      const r = await run(t, ["load", ...key, "--duration", "2", "--thresholds", "gate"]);
      expect(r.code === 0, `exit ${r.code}: ${r.out.slice(-2500)}`);
      expect(readdirIn(join(t, "reports", "load")).length > 0, "nothing in ./reports/load");
    });
    await check("tools: gate against the mock", async () => {
      // a credit budget paces the load stage, as a CI job against a paid target runs it (without one the stage is a
      // closed loop on both cores for its whole share of the box, beside the tests), and --fuzz-runs bounds the fuzz
      // stage's work instead of filling its share
      const r = await run(t, [
        "gate",
        ...key,
        "--broke-api-key",
        "broke-key",
        "--time",
        "20",
        "--fuzz-runs",
        "50",
        "--budget-credits",
        "500",
      ]);
      expect(r.code === 0, `exit ${r.code}: ${r.out.slice(-2500)}`);
      return r.out.trim().split("\n").pop();
    });
    await check("tools: proxy in front of the mock", async () => {
      const proxy = await serve(t, ["proxy", "--upstream", target, "--port", "0", "--report-dir", "reports/proxy"]);
      const res = await fetch(`${proxy.url}/usage`, { headers: { authorization: "Bearer smoke-key" } });
      expect(res.status === 200, `GET /usage through the proxy answered ${res.status}`);
      const code = await proxy.stop();
      expect(code === 0, `the proxy exited ${code}`);
    });
  }
  await check("tools: load compare without the mock and Prism names what to add", async () => {
    const r = await run(t, ["load", "compare", "--duration", "1"]);
    expect(
      r.code === 2 && /npm install --save-dev (@plumbline-kit\/mock|@stoplight\/prism-cli)/.test(r.out),
      `exit ${r.code}: ${r.out}`,
    );
    expect(!/\n\s+at /.test(r.out), `a stack trace: ${r.out}`);
    return r.out.trim();
  });
  await check("tools: load compare with the mock and Prism installed", async () => {
    const prism = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies["@stoplight/prism-cli"];
    const specs = [...new Set([...closureOf("tools"), ...closureOf("mock")])].map((n) => tarballs[n]);
    installInto([...specs, `@stoplight/prism-cli@${prism}`], { nodeBin, dir: t });
    // one short round: this checks the peers start and answer, not their figures (plumbline bench mock-search)
    const r = await run(t, ["load", "compare", "--duration", "1", "--rounds", "1"]);
    expect(r.code === 0 && /prism/i.test(r.out), `exit ${r.code}: ${r.out.slice(-2500)}`);
  });
}

if (projects.reference)
  await check("reference: serves, crawls and screenshots a local page", async () => {
    const ref = await serve(projects.reference, [
      "reference",
      "--port",
      "0",
      "--data-dir",
      "data",
      "--key",
      "smoke-key:1000",
      "--allow-private-network",
      ...(args.browser ? ["--chromium", args.browser] : []),
    ]);
    try {
      const post = (/** @type {string} */ path, /** @type {unknown} */ body) =>
        fetch(`${ref.url}${path}`, {
          method: "POST",
          headers: { authorization: "Bearer smoke-key", "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const crawl = await post("/crawl", { url: siteUrl, enableFallback: false });
      const text = await crawl.text();
      expect(crawl.status === 200 && text.includes("Some words"), `crawl ${crawl.status}: ${text.slice(0, 500)}`);
      const shot = await post("/screenshot", { url: siteUrl });
      const body = Buffer.from(await shot.arrayBuffer());
      expect(shot.status === 200 && body.length > 1000, `screenshot ${shot.status}: ${body.toString("utf8", 0, 500)}`);
    } finally {
      await ref.stop();
    }
  });

if (mock) await mock.stop();
site.close();
for (const child of children) child.kill("SIGKILL");
if (!args.keep) rmSync(work, { recursive: true, force: true });
const failed = results.filter((r) => !r.ok);
console.log(
  failed.length === 0
    ? `package smoke passed on Node ${await nodeVersion()}: ${results.length} steps`
    : `package smoke FAILED on Node ${await nodeVersion()}: ${failed.length} of ${results.length} steps:\n  ${failed.map((f) => f.step).join("\n  ")}`,
);
process.exit(failed.length === 0 ? 0 : 1);

function readdirIn(/** @type {string} */ dir) {
  return existsSync(dir) ? readdirSync(dir) : [];
}

async function nodeVersion() {
  return new Promise((resolve) => {
    const child = spawn(node, ["--version"]);
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("exit", () => resolve(out.trim()));
  });
}
