// `plumbline bench install` (issue 36): what a user installs, measured as they would meet it. Every package is
// packed (npm run build first) and installed alone into an empty project (`npm install --omit=dev`, with the
// tarballs of the plumbline packages it depends on standing in for the registry), beside Prism's CLI and MSW from
// the registry: node_modules' size and package count, the install's time (npm's cache warm, --prefer-offline: the
// time of resolving, unpacking and linking, not of the network) and a cold import in a fresh Node (median of 5).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closureOf, footprint, installInto, packAll, ROOT } from "../../../tools/packages.js";

export interface InstallRow {
  name: string;
  what: string;
  megabytes: number;
  packages: number;
  installSeconds: number;
  /** median of 5 fresh Node processes, ms */
  importMs: number;
  importOf: string;
}

export interface InstallBenchResult {
  node: string;
  rows: InstallRow[];
  /** the issue's bar: the mock's and the client tools' installs each under Prism's size and package count, and a
   * cold import of startMock under 500 ms */
  holds: boolean;
}

/** A cold import in a fresh Node: ms from start of import() to its end, median of `runs`. */
function coldImportMs(dir: string, code: string, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", `const t = performance.now(); ${code}; console.log(performance.now() - t);`],
      { cwd: dir, encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`import failed in ${dir}: ${r.stderr.slice(-1000)}`);
    times.push(Number(r.stdout.trim().split("\n").pop()));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

export async function benchInstall(o: { packages?: string[] } = {}): Promise<InstallBenchResult> {
  const work = mkdtempSync(join(tmpdir(), "plumbline-install-bench-"));
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  try {
    const tarballs = packAll(join(work, "tarballs")) as Record<string, string>;
    const rows: InstallRow[] = [];
    const measure = (name: string, what: string, specs: string[], importOf: string, code: string) => {
      const { dir, seconds } = installInto(specs, { dir: mkdtempSync(join(work, "project-")) });
      const f = footprint(dir);
      rows.push({ name, what, ...f, installSeconds: seconds, importMs: coldImportMs(dir, code), importOf });
    };
    const ours: [string, string, string, string][] = [
      [
        "mock",
        "the mock and its MSW handlers (client teams)",
        "startMock",
        'const { startMock } = await import("@plumbline-kit/mock")',
      ],
      [
        "tools",
        "conform, fuzz, load, gate, proxy, spec diff (CI jobs)",
        "runConformance",
        'const { runConformance } = await import("@plumbline-kit/tools")',
      ],
      ["cli", "the plumbline command alone", "main", 'const { main } = await import("@plumbline-kit/cli")'],
      [
        "contract",
        "the contract: document, types, validators",
        "loadContract",
        'const { loadContract } = await import("@plumbline-kit/contract")',
      ],
      [
        "reference",
        "the reference implementation",
        "startReference",
        'const { startReference } = await import("@plumbline-kit/reference")',
      ],
    ];
    for (const [name, what, importOf, code] of ours.filter(([n]) => !o.packages || o.packages.includes(n)))
      measure(
        `@plumbline-kit/${name}`,
        what,
        closureOf(name).map((n: string) => tarballs[n]),
        importOf,
        code,
      );
    const prism = `@stoplight/prism-cli@${root.devDependencies["@stoplight/prism-cli"]}`;
    measure(
      "Prism",
      `${prism} (the mock client teams compare with)`,
      [prism],
      "prism-http",
      'await import("@stoplight/prism-http")',
    );
    const msw = `msw@${root.devDependencies.msw}`;
    measure("MSW", msw, [msw], "msw", 'await import("msw")');
    const row = (n: string) => rows.find((r) => r.name === n);
    const bar = row("Prism");
    const light = ["@plumbline-kit/mock", "@plumbline-kit/tools"].map(row).filter((r) => r !== undefined);
    const holds =
      bar !== undefined &&
      light.every((r) => r.megabytes < bar.megabytes && r.packages < bar.packages) &&
      (row("@plumbline-kit/mock")?.importMs ?? 0) < 500;
    return { node: process.version, rows, holds };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function renderInstallBench(r: InstallBenchResult): string {
  const lines = [
    `install of each package alone (npm install --omit=dev, warm cache), node ${r.node}`,
    "",
    "| package | for | node_modules | packages | install | cold import |",
    "|---|---|---:|---:|---:|---:|",
    ...r.rows.map(
      (x) =>
        `| ${x.name} | ${x.what} | ${x.megabytes.toFixed(1)} MB | ${x.packages} | ${x.installSeconds.toFixed(1)} s | ${x.importMs.toFixed(0)} ms (${x.importOf}) |`,
    ),
    "",
    r.holds
      ? "holds: the mock's and the tools' installs are each smaller than Prism's (size and packages), and startMock imports in under 500 ms"
      : "MISSED: the mock's or the tools' install is not smaller than Prism's, or startMock's cold import took 500 ms or more",
  ];
  return lines.join("\n");
}

/** Whether npm is on PATH (the benchmark packs and installs with it). */
export function hasNpm(): boolean {
  try {
    execFileSync("npm", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
