// What `plumbline bench crawl-quality` prints (its figures and worst pages) and the floors file it reads (--floor).
import { readFileSync } from "node:fs";
import type { CrawlQualityOptions, CrawlQualityResult } from "./crawl-quality-bench.ts";

const pct = (n: number) => n.toFixed(4);

export function renderCrawlQuality(r: CrawlQualityResult): string {
  const who = r.startedReference ? `the reference (started at ${r.target})` : r.target;
  const lines = [
    `crawl quality of ${who} on ${r.figures.pages} pages of ${r.data} (${r.seconds} s)`,
    `F1 ${pct(r.figures.f1)}  precision ${pct(r.figures.precision)}  recall ${pct(r.figures.recall)}` +
      (r.failed ? `  (${r.failed} crawls failed, scored as nothing extracted)` : ""),
    "",
    `${r.worst.length} worst pages:`,
    "  F1      P       R       page",
    ...r.worst.map(
      (p) =>
        `  ${pct(p.f1)}  ${pct(p.precision)}  ${pct(p.recall)}  ${p.id.slice(0, 12)}  ${p.url}${p.error ? `  [${p.error}]` : ""}`,
    ),
  ];
  for (const b of r.breaches) lines.push(`BELOW FLOOR: ${b}`);
  return lines.join("\n");
}

export function readFloor(file: string): NonNullable<CrawlQualityOptions["floor"]> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`--floor ${file}: ${(err as Error).message}`);
  }
  const floor: NonNullable<CrawlQualityOptions["floor"]> = {};
  for (const k of ["f1", "precision", "recall"] as const) {
    const v = (data as Record<string, unknown>)?.[k];
    if (v === undefined) continue;
    if (typeof v !== "number" || !(v >= 0 && v <= 1)) throw new Error(`--floor ${file}: "${k}" takes 0..1`);
    floor[k] = v;
  }
  return floor;
}
