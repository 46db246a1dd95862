// Artillery (a devDependency, issue 31) run as a child process on an exported script, as a CI job would run it: the
// Node running the tests, telemetry off (ARTILLERY_DISABLE_TELEMETRY, Artillery's documented switch), the API key in
// the environment, a JSON report, and a hang detector that kills it. Test glue only.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const ARTILLERY_BIN = join(dirname(createRequire(import.meta.url).resolve("artillery/package.json")), "bin", "run");

export interface ArtilleryRun {
  code: number | null;
  output: string;
  /** the `ensure` lines: "ok: <condition>" / "fail: <condition>" */
  checks: Array<{ ok: boolean; condition: string }>;
}

export function runArtillery(script: string, report: string, apiKey: string, hangMs = 120_000): Promise<ArtilleryRun> {
  const child = spawn(process.execPath, [ARTILLERY_BIN, "run", "--output", report, script], {
    cwd: dirname(script),
    env: { ...process.env, ARTILLERY_DISABLE_TELEMETRY: "true", PLUMBLINE_API_KEY: apiKey, DEBUG: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => {
    output += c;
  });
  child.stderr.on("data", (c: Buffer) => {
    output += c;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), hangMs);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      const verdicts = output.slice(output.lastIndexOf("\nChecks:\n") + 1);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: Artillery may colour "ok" and "fail"
      const checks = [...verdicts.matchAll(/^(?:\x1b\[\d+m)?(ok|fail)(?:\x1b\[\d+m)?: (.+)$/gm)].map((m) => ({
        ok: m[1] === "ok",
        condition: m[2].trim(),
      }));
      resolve({ code, output, checks });
    }),
  );
}
