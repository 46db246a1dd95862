// The quick starts run as written. Every shell block of the README and docs/*.md whose info string is
// `sh runnable` is run by bash (-e, -o pipefail) from an empty folder, as a user pastes it after installing the
// package: `npx plumbline` is the package's command (here bin/plumbline.js, through a `plumbline` on PATH, since
// npx in a fresh folder would look for the name on the registry, where it is another package). Loopback only: the
// ports the block names are swapped for free ones, so it runs beside anything else on this machine; background
// jobs are ended when the block ends. The Vitest quick start is a file of examples/, shown whole, which npm test
// runs: a block whose info string names a file must be that file.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "./cli-process.ts";
import { type CodeBlock, documentationFiles, ROOT, readPage } from "./markdown.ts";

const pages = documentationFiles()
  .filter((f) => f === "README.md" || f.startsWith("docs/"))
  .map(readPage);
const runnable = pages.flatMap((p) =>
  p.blocks.filter((b) => /^sh\s+runnable\b/.test(b.info)).map((b) => ({ file: p.file, block: b })),
);
const shown = pages.flatMap((p) =>
  p.blocks
    .filter((b) => /^\w+\s+\S+\.\w+$/.test(b.info) && !/runnable/.test(b.info))
    .map((b) => ({ file: p.file, block: b })),
);

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

/** The block as a script: the fixed ports it names swapped for free ones, its background jobs ended at its end. */
async function script(block: CodeBlock): Promise<string> {
  let text = block.text.replace(/\bnpx plumbline\b/g, "plumbline");
  for (const port of new Set(text.match(/\b(4010|4020|8080|8081)\b/g) ?? []))
    text = text.replace(new RegExp(`\\b${port}\\b`, "g"), String(await freePort()));
  return `trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT\n${text}\n`;
}

function run(text: string, cwd: string, bin: string): Promise<{ code: number | null; out: string }> {
  const child = spawn("bash", ["-e", "-o", "pipefail", "-c", text], {
    cwd,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: "1" },
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
  // a hang detector, not a budget: a block that passes ends long before it
  const timer = setTimeout(() => process.kill(-(child.pid as number), "SIGKILL"), 150_000);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    }),
  );
}

describe("the runnable quick starts", () => {
  it("are the README's: the mock, and conformance against a deployment (the mock standing in)", () => {
    expect(runnable.filter((r) => r.file === "README.md").length).toBeGreaterThanOrEqual(2);
  });

  for (const { file, block } of runnable)
    it(`${file}:${block.line} runs as written`, { timeout: 180_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), "plumbline-quick-start-"));
      const bin = mkdtempSync(join(tmpdir(), "plumbline-bin-"));
      try {
        writeFileSync(join(bin, "plumbline"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
        chmodSync(join(bin, "plumbline"), 0o755);
        const r = await run(await script(block), dir, bin);
        expect(r.code, r.out).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(bin, { recursive: true, force: true });
      }
    });
});

describe("the code shown as a file", () => {
  it("is the file, which npm test runs", () => {
    expect(shown.length).toBeGreaterThanOrEqual(1);
    for (const { file, block } of shown) {
      const path = block.info.split(/\s+/)[1];
      expect(`${block.text}\n`, `${file}:${block.line} shows ${path}`).toBe(readFileSync(join(ROOT, path), "utf8"));
      expect(path, "a test file, which npm test runs").toMatch(/\.test\.ts$/);
    }
  });
});
