// Vitest globalSetup: the `plumbline` processes tests start run the built command (packages/cli/dist/plumbline.js,
// what `npx plumbline` runs after installing the packages), not the sources under tsx: a source-mode start costs
// ~2 s of CPU compiling and loading TypeScript, a built one ~0.5 s, and a full run starts hundreds. So the build
// must be of the sources being tested: `npm test` builds right before Vitest; a run started alone (`npx vitest run
// FILE`) builds here first when the sources changed since the last build (tools/build-fingerprint.js), ~15 s.
// PLUMBLINE_TEST_FROM_SOURCES=1 starts them from the sources instead (bin/plumbline.js), with no build.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FINGERPRINT_FILE, ROOT, sourceFingerprint } from "../tools/build-fingerprint.js";

export function setup(): void {
  if (process.env.PLUMBLINE_TEST_FROM_SOURCES === "1") return;
  const built = existsSync(FINGERPRINT_FILE) ? readFileSync(FINGERPRINT_FILE, "utf8").trim() : "";
  if (built === sourceFingerprint()) return;
  console.log("building the packages first: the sources changed since the last build (tests run the built command)");
  execFileSync(process.execPath, [join(ROOT, "tools", "build.js")], { stdio: "inherit" });
}
