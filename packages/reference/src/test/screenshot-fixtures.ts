// Test support: the pages the screenshot tests shoot (served by fixture-site.ts), with their geometry and colours.
import { execFileSync } from "node:child_process";
import type { Route } from "./fixture-site.ts";

export const SHOT_FIXTURE = {
  /** the document's height in CSS px */
  height: 2400,
  /** #plb-box: light #1f6feb, dark #101010 */
  box: { left: 40, top: 60, width: 320, height: 180 },
} as const;

const SHOT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shot</title><style>
  html, body { margin: 0; padding: 0; overflow-x: hidden; }
  #tall { height: 2400px; width: 100%; }
  #plb-box { position: absolute; left: 40px; top: 60px; width: 320px; height: 180px; box-sizing: border-box;
    background: #1f6feb; color: #fff; font: 16px/1 sans-serif; padding: 12px; }
  #plb-low { position: absolute; left: 100px; top: 1500px; width: 200px; height: 100px; background: #ee2222; }
  @media (prefers-color-scheme: dark) { #plb-box { background: #101010; } }
</style></head><body><div id="tall"></div><div id="plb-box">Plumbline box</div><div id="plb-low"></div></body></html>`;

const BUSY = `<!doctype html><html><head><style>body { margin: 0; font: 13px serif; }
  p:nth-child(odd) { color: #a33; background: linear-gradient(90deg, #fe0, #0af); }</style></head><body>${Array.from(
    { length: 60 },
    (_, i) => `<p>${i} The quick brown fox jumps over the lazy dog while the harbour pilot reads the tide tables.</p>`,
  ).join("")}</body></html>`;

const LATE = `<!doctype html><html><head><style>html, body { margin: 0; background: #fff; }
  #late { position: fixed; inset: 0; background: rgb(0, 128, 0); }</style></head><body><p>&nbsp;</p><script>
  addEventListener("load", () => setTimeout(() => {
    const d = document.createElement("div"); d.id = "late"; document.body.append(d);
  }, 600));
</script></body></html>`;

const ANIMATED = `<!doctype html><html><head><style>html, body { margin: 0; }
  @keyframes shift { from { background: rgb(255, 0, 0); } to { background: rgb(0, 0, 255); } }
  #a { position: fixed; inset: 0; animation: shift 60s linear 1 forwards; }</style></head><body><div id="a"></div></body></html>`;

/** The routes of the screenshot fixture site; `internal` is an origin the guard refuses. */
export const SHOT_ROUTES = (internal: string): Record<string, Route> => ({
  "/shot.html": { body: SHOT },
  "/busy.html": { body: BUSY },
  "/late.html": { body: LATE },
  "/animated.html": { body: ANIMATED },
  "/slow.html": { body: SHOT, delayMs: 5_000 },
  "/slowish.html": { body: SHOT, delayMs: 1_500 },
  "/to-internal": { status: 302, headers: { location: `${internal}/` } },
  "/navigates-internal.html": { body: `<p>leaving</p><script>location.replace("${internal}/")</script>` },
  "/probe.html": {
    body: `<!doctype html><html><body style="margin:0"><p>probe</p><img src="${internal}/secret.png">
      <img src="http://169.254.169.254/latest/meta-data/a.png"><iframe src="${internal}/"></iframe>
      <script>fetch("${internal}/").catch(() => {});</script></body></html>`,
  },
});

/** The pids of the Chromium processes this process started (the crash test kills them). */
export function chromiumChildren(): number[] {
  const out = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
  return out
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter(([, comm]) => /chrom/.test(comm ?? ""))
    .map(([pid]) => Number(pid));
}
