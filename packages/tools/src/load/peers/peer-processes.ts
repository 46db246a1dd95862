// The peers of a comparison, each in its own process so none shares the load generator's event loop: the
// plumbline mock (through its CLI: load/ is a client and never imports it), Prism mocking the same document,
// and a bare Fastify server answering recorded bytes (the floor any Fastify-based mock can reach).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { plumblineEntry } from "@plumbline-kit/cli/launch";
import { SPEC_PATH } from "@plumbline-kit/contract/document";
import { TEMPLATE_TAG_HEADER } from "../request-plan.ts";

/** The tools package's folder (the peers run there, so the bare server's `fastify` resolves as the package's). */
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** An optional peer package's entry, or a message naming the package to add. */
function optionalPeer(name: string, purpose: string): string {
  try {
    return fileURLToPath(import.meta.resolve(name));
  } catch {
    throw new Error(`${purpose} needs the package ${name}, which is not installed: npm install --save-dev ${name}`);
  }
}

export interface Peer {
  name: string;
  url: string;
  child: ChildProcess;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Spawns a server and resolves once its output matches `ready`; the match is returned with the process. */
export function startProcess(
  cmd: string,
  args: string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  let started = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error(`${cmd} did not start:\n${log}`));
    }, 60_000);
    // once started, output is still read (a chatty server must never block on a full pipe) but not kept
    const onData = (d: Buffer) => {
      if (started) return;
      log += d;
      const match = ready.exec(log);
      if (match) {
        started = true;
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited with ${code}:\n${log}`));
    });
  });
}

/** The packages a comparison needs beside this one (optional peers): checked before any peer starts. */
export function checkComparePeers(): void {
  optionalPeer("@plumbline-kit/mock", "comparing with the plumbline mock (load compare)");
  // the bare Fastify peer runs on the mock's Fastify (a dependency of the mock's platform)
  optionalPeer("fastify", "the bare Fastify peer (load compare)");
  optionalPeer("@stoplight/prism-cli/package.json", "comparing with Prism (load compare)");
}

export async function startMockPeer(key: string, extraArgs: string[] = []): Promise<Peer> {
  optionalPeer("@plumbline-kit/mock", "comparing with the plumbline mock");
  const { child, match } = await startProcess(
    process.execPath,
    [plumblineEntry(), "mock", "--port", "0", "--key", `${key}:1000000000000`, "--rate-limit", "0", ...extraArgs],
    /listening on (http:\/\/\S+)/,
  );
  return { name: "plumbline mock", url: match[1], child };
}

export async function startPrismPeer(): Promise<Peer> {
  const port = await freePort();
  const pkg = optionalPeer("@stoplight/prism-cli/package.json", "comparing with Prism (load compare)");
  const { bin } = JSON.parse(readFileSync(pkg, "utf8")) as { bin: string | Record<string, string> };
  const script = join(pkg, "..", typeof bin === "string" ? bin : (bin.prism ?? Object.values(bin)[0]));
  const { child } = await startProcess(
    process.execPath,
    [script, "mock", SPEC_PATH, "-p", String(port), "-h", "127.0.0.1"],
    /Prism is listening/,
  );
  return { name: "prism mock", url: `http://127.0.0.1:${port}`, child };
}

/** A recorded answer; `tag` is the template tag header's value that selects it (undefined: the default). */
export interface BareAnswer {
  method: string;
  url: string;
  tag?: string;
  status: number;
  contentType: string;
  body: Buffer;
}

const BARE_SERVER = `import Fastify from "fastify"; import { readFileSync } from "node:fs";
const { port, routes } = JSON.parse(readFileSync(process.argv[1], "utf8"));
const app = Fastify();
for (const r of routes) {
  const answers = new Map(r.answers.map((a) => [a.tag ?? "", { ...a, bytes: Buffer.from(a.body, "base64") }]));
  const fallback = answers.get("") ?? answers.get(r.answers[0].tag ?? "");
  app.route({ method: r.method, url: r.url, handler: async (req, reply) => {
    const a = answers.get(req.headers["${TEMPLATE_TAG_HEADER}"] ?? "") ?? fallback;
    return reply.code(a.status).type(a.contentType).send(a.bytes);
  } });
}
await app.listen({ port, host: "127.0.0.1" });
console.log("listening");`;

/** Serves recorded answers, one route per method and path, chosen by the template tag: nothing else. */
export async function startBarePeer(answers: BareAnswer[]): Promise<Peer> {
  const port = await freePort();
  const routes = new Map<string, { method: string; url: string; answers: unknown[] }>();
  for (const a of answers) {
    const key = `${a.method} ${a.url}`;
    if (!routes.has(key)) routes.set(key, { method: a.method, url: a.url, answers: [] });
    routes
      .get(key)
      ?.answers.push({ tag: a.tag, status: a.status, contentType: a.contentType, body: a.body.toString("base64") });
  }
  const file = join(mkdtempSync(join(tmpdir(), "plumbline-bare-")), "routes.json");
  writeFileSync(file, JSON.stringify({ port, routes: [...routes.values()] }));
  const { child } = await startProcess(process.execPath, ["--input-type=module", "-e", BARE_SERVER, file], /listening/);
  return { name: "bare fastify", url: `http://127.0.0.1:${port}`, child };
}

export function stopPeers(peers: Array<Peer | undefined>): void {
  for (const p of peers) if (p && p.child.exitCode === null) p.child.kill("SIGTERM");
}
