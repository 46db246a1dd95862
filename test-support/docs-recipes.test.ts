// Every recipe of the README and docs/*.md runs as written (issue 37): each ```sh block, and each GitHub Actions job
// of a ```yaml block (its `run:` steps in order, each in its own `bash -eo pipefail` as the runner does, with the
// step's `env:`), unless the line before the block says `<!-- not-run: why -->`. A new recipe is run unless someone
// writes down why not. Each runs in a new client project where plumbline is installed (linked: `npx plumbline` is
// the real npx finding node_modules/.bin), in a session of its own, loopback only:
// - the deployments it names are stand-ins: https://api.example.com, https://staging.example.com, $STAGING_URL and
//   https://api.example.test are a mock started here (rate limits off, private addresses allowed, so the fixture
//   site the run serves can be read), https://fixtures.example.com a static host serving ./fixtures/main of the
//   recipe's folder; the secrets a job reads are that mock's keys;
// - the fixed ports it names (4010, 4020, 8080, 8081) are swapped for free ones;
// - the client's own tests (`npm test`, `npm run test:e2e`) are a script calling POST /search at the address the
//   recipe gives them (API_BASE_URL, API_URL or PLUMBLINE_URL), exiting 1 unless it answers 200, run by a stand-in of
//   the client's npm first on PATH (as a wrapped command or a shell runs it) without npm's own start; `npm ci` does
//   nothing (the project is installed), any other npm command is npm's; `actions/*` steps are the runner's and are
//   left out; `plumbline` alone is node_modules/.bin's, as in an npm script;
// - a recording (session.har, test/recordings/session.har) is one made here through the proxy in front of the
//   stand-in; a job reading the fixture manifest from a secret gets the manifest of an export the static host serves.
// When the recipe has ended, no process of its session may be left (a `&` nobody stops is a failure).
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type RunningMock, startMock } from "../packages/mock/src/start-mock.ts";
import { exportFixtures } from "../packages/tools/src/conformance/fixtures/fixture-export.ts";
import { startProxy } from "../packages/tools/src/proxy/start-proxy.ts";
import { linkedProject, npx, userEnv } from "./linked-project.ts";
import { type CodeBlock, documentationFiles, ROOT, readPage } from "./markdown.ts";
import { startStaticSite } from "./static-site.ts";

// a careful client's test: it waits out a 429 and retries a 5xx or a dropped connection (plumbline edges sends those)
const CLIENT_TEST = `
const base = process.env.API_BASE_URL ?? process.env.API_URL ?? process.env.PLUMBLINE_URL;
const key = process.env.PLUMBLINE_API_KEY ?? process.env.API_KEY;
let r;
for (let attempt = 1; attempt <= 4; attempt++) {
  try {
    r = await fetch(base + "/search", {
      method: "POST",
      headers: { authorization: "Bearer " + key, "content-type": "application/json" },
      body: JSON.stringify({ query: "the client's end-to-end test" }),
    });
  } catch {
    continue;
  }
  const wait = r.status === 429 ? Math.min(Number(r.headers.get("retry-after") ?? 1), 2) * 1000 : 0;
  if (r.status !== 429 && r.status < 502) break;
  await new Promise((resolve) => setTimeout(resolve, wait || 100));
}
console.log("client test: POST /search answered", r?.status);
process.exit(r?.status === 200 ? 0 : 1);
`;

interface Recipe {
  file: string;
  line: number;
  name: string;
  /** a shell script, or a job's run steps */
  steps: Array<{ run: string; env: Record<string, string> }>;
  notRun?: string;
}

/** The recipes of a page: its sh blocks and the jobs of its GitHub Actions YAML. */
function recipes(file: string): Recipe[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const marker = (b: CodeBlock) => /^\s*<!--\s*not-run:\s*(.+?)\s*-->\s*$/.exec(lines[b.line - 2] ?? "")?.[1];
  const out: Recipe[] = [];
  for (const b of readPage(file).blocks) {
    const lang = b.info.split(/\s+/)[0];
    if (lang === "sh" || lang === "bash" || lang === "shell")
      out.push({ file, line: b.line, name: "sh", steps: [{ run: b.text, env: {} }], notRun: marker(b) });
    if (lang !== "yaml" && lang !== "yml") continue;
    const doc = parse(b.text) as unknown;
    const jobs: Array<[string, unknown[]]> = Array.isArray(doc)
      ? [["steps", doc]]
      : Object.entries(((doc as { jobs?: Record<string, { steps?: unknown[] }> })?.jobs ?? {}) as object).map(
          ([name, job]) => [name, (job as { steps?: unknown[] }).steps ?? []] as [string, unknown[]],
        );
    for (const [name, steps] of jobs) {
      const runs = (steps as Array<{ run?: string; env?: Record<string, string> }>)
        .filter((s) => typeof s.run === "string")
        .map((s) => ({ run: s.run as string, env: s.env ?? {} }));
      if (runs.length > 0) out.push({ file, line: b.line, name: `job ${name}`, steps: runs, notRun: marker(b) });
    }
  }
  return out;
}

const all = documentationFiles()
  .filter((f) => f === "README.md" || f.startsWith("docs/"))
  .flatMap(recipes);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The processes of a session (Linux /proc): those a recipe started and left running. */
function sessionMembers(sid: number): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.replace(/^.*\) /s, "").split(" ");
      if (Number(fields[3]) === sid && fields[0] !== "Z")
        out.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim()}`);
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** npm as found on the user's PATH (what the stand-in passes any other npm command to) */
const REAL_NPM = join(dirname(npx()), "npm");

let mock: RunningMock;
let recording: string;
const KEYS = { funded: "stand-in-key", broke: "stand-in-broke", test: "test-key" };

/** A stand-in of the deployment: the mock, with the accounts the recipes' secrets name. */
function startStandIn(): Promise<RunningMock> {
  return startMock({
    port: 0,
    keys: [
      { key: KEYS.funded, credits: 1_000_000_000 },
      { key: KEYS.broke, credits: 0 },
      { key: KEYS.test, credits: 1000 },
    ],
    rateLimits: { perAccount: 0 },
    allowPrivateNetwork: true,
  });
}

beforeAll(async () => {
  mock = await startStandIn();
  const har = join(tmpdir(), `plumbline-recipes-${process.pid}.har`);
  const proxy = await startProxy({ upstream: mock.url, port: 0, record: har, reportDir: null });
  for (const key of [KEYS.funded, KEYS.test])
    await fetch(`${proxy.url}/search`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "the client's end-to-end test" }),
    });
  await proxy.close();
  recording = readFileSync(har, "utf8");
});
afterAll(() => mock?.close());

async function run(recipe: Recipe): Promise<{ code: number | null; out: string; left: string[] }> {
  // the benchmarks are never built nor published: a recipe of `plumbline bench` runs as in the repository, from the sources
  const project = linkedProject("plumbline-recipe-", {
    fromSources: recipe.steps.some((st) => /\bplumbline bench\b/.test(st.run)),
  });
  const fixtures = await startStaticSite(join(project.dir, "fixtures", "main"));
  // a recipe that names the deployment gets a stand-in of its own: a conformance run judges the balance it sees
  // move, and another recipe's spending on a shared key would look like a charge
  const standIn = usesStandIn(recipe) ? await startStandIn() : mock;
  try {
    writeFileSync(join(project.dir, "client-test.js"), CLIENT_TEST);
    const pkg = JSON.parse(readFileSync(join(project.dir, "package.json"), "utf8"));
    pkg.scripts = { test: "node client-test.js", "test:e2e": "node client-test.js" };
    writeFileSync(join(project.dir, "package.json"), JSON.stringify(pkg));
    // the client's npm: its scripts above without npm's own start (~0.5 CPU-s a run, and the recipes run many)
    const bin = join(project.dir, ".recipe-bin");
    mkdirSync(bin);
    const client = `exec node ${JSON.stringify(join(project.dir, "client-test.js"))}`;
    writeFileSync(
      join(bin, "npm"),
      `#!/bin/sh
case "$1 $2" in
  "ci "*) exit 0 ;;
  "test "*|"run test"|"run test:e2e") ${client} ;;
esac
exec ${JSON.stringify(REAL_NPM)} "$@"
`,
      { mode: 0o755 },
    );
    writeFileSync(join(project.dir, "session.har"), recording);
    mkdirSync(join(project.dir, "test", "recordings"), { recursive: true });
    writeFileSync(join(project.dir, "test", "recordings", "session.har"), recording);
    const secrets: Record<string, string> = {
      PLUMBLINE_API_KEY: KEYS.funded,
      PLUMBLINE_BROKE_API_KEY: KEYS.broke,
      API_KEY: KEYS.funded,
      BROKE_KEY: KEYS.broke,
      TEST_KEY: KEYS.test,
      STAGING_URL: standIn.url,
    };
    if (
      recipe.steps.some((s) => Object.values(s.env).some((v) => /secrets\.PLUMBLINE_FIXTURE_MANIFEST/.test(String(v))))
    ) {
      await exportFixtures({ dir: join(project.dir, "fixtures"), baseUrl: fixtures.url });
      secrets.PLUMBLINE_FIXTURE_MANIFEST = readFileSync(join(project.dir, "fixtures", "manifest.json"), "utf8");
    }
    const ports = new Map<string, string>();
    const localize = async (text: string) => {
      let t = text
        .replace(/https:\/\/(api|staging)\.example\.com|https:\/\/api\.example\.test/g, standIn.url)
        .replace(/https:\/\/fixtures\.example\.com/g, fixtures.url)
        .replace(/\$\{\{\s*secrets\.(\w+)\s*\}\}/g, (_, name: string) => secrets[name] ?? "");
      for (const port of new Set(t.match(/\b(4010|4020|8080|8081)\b/g) ?? [])) {
        if (!ports.has(port)) ports.set(port, String(await freePort()));
        t = t.replace(new RegExp(`\\b${port}\\b`, "g"), ports.get(port) as string);
      }
      return t;
    };
    const lines: string[] = [];
    for (const [i, step] of recipe.steps.entries()) {
      writeFileSync(join(project.dir, `.step-${i}.sh`), `${await localize(step.run)}\n`);
      const env = await Promise.all(
        Object.entries(step.env).map(async ([k, v]) => `${k}='${(await localize(String(v))).replace(/'/g, "'\\''")}'`),
      );
      lines.push(`${env.join(" ")} bash --noprofile --norc -eo pipefail .step-${i}.sh || exit $?`);
    }
    const child = spawn("bash", ["--noprofile", "--norc", "-c", lines.join("\n")], {
      cwd: project.dir,
      env: userEnv({ ...secrets, PATH: `${bin}:${join(project.dir, "node_modules", ".bin")}:${userEnv().PATH}` }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c;
    });
    child.stderr.on("data", (c: Buffer) => {
      out += c;
    });
    const sid = child.pid as number;
    // its exit, not the end of its output: a process left in the background keeps the pipes open
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    // what a wrapped command stopped may take a moment to go; a `&` left running stays
    let left = sessionMembers(sid);
    for (let i = 0; i < 40 && left.length > 0; i++) {
      await sleep(50);
      left = sessionMembers(sid);
    }
    for (const p of left) {
      try {
        process.kill(Number(p.split(" ")[0]), "SIGKILL");
      } catch {}
    }
    return { code, out, left };
  } finally {
    await fixtures.close();
    if (standIn !== mock) await standIn.close();
    project.remove();
  }
}

/** Whether a recipe reaches the shared stand-in of a deployment (its address or its secrets). */
function usesStandIn(recipe: Recipe): boolean {
  const text = recipe.steps.map((st) => `${st.run} ${JSON.stringify(st.env)}`).join("\n");
  return /(api|staging)\.example\.(com|test)|STAGING_URL|\$\{\{\s*secrets\.|\$API_KEY|\$TEST_KEY|\$BROKE_KEY/.test(
    text,
  );
}

describe("the recipes of the README and docs", () => {
  it("include the README's quick starts and the CI jobs of the proxy, the gate and record-replay", () => {
    const names = all.filter((r) => !r.notRun).map((r) => `${r.file} ${r.name}`);
    for (const expected of [
      "README.md sh",
      "README.md job gate",
      "docs/proxy.md job steps",
      "docs/load-and-gate.md job gate-mock",
    ])
      expect(names).toContain(expected);
  });

  it("that are not run say why", () => {
    for (const r of all.filter((x) => x.notRun !== undefined)) expect(r.notRun, `${r.file}:${r.line}`).toMatch(/\w{3}/);
  });

  // each recipe has a project, ports, fixture site and (when it names the deployment) stand-in of its own; the gate
  // jobs are time-boxed (--time 30), so they run side by side (Vitest's maxConcurrency, 5) instead of one after
  // another.
  // a recipe written twice (the README's quick start repeats a job of a docs page) runs once: the same steps, the
  // same stand-ins, the same outcome for both places
  const runs = new Map<string, ReturnType<typeof run>>();
  const runOnce = (recipe: Recipe) => {
    const key = JSON.stringify(recipe.steps);
    if (!runs.has(key)) runs.set(key, run(recipe));
    return runs.get(key) as ReturnType<typeof run>;
  };
  // the longest first (a benchmark, then the time-boxed gates), as Vitest starts concurrent tests in the order they
  // are written, five at a time: the file then ends with its longest recipe instead of after it
  const weight = (r: Recipe) => {
    const text = r.steps.map((st) => st.run).join("\n");
    return /\bplumbline bench\b/.test(text) ? 2 : /\bplumbline gate\b/.test(text) ? 1 : 0;
  };
  const runnable = all.filter((r) => r.notRun === undefined).sort((a, b) => weight(b) - weight(a));
  for (const recipe of runnable)
    it.concurrent(`${recipe.file}:${recipe.line} ${recipe.name} runs as written and leaves no process`, {
      timeout: 900_000,
    }, async () => {
      const r = await runOnce(recipe);
      expect(r.code, r.out).toBe(0);
      expect(r.left, r.out).toEqual([]);
    });
});
