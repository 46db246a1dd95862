// Targets the URL-safety guard refuses (D-target-refusal; interface-spec "POST /screenshot": 403 for a target that
// failed URL-safety checks): a cloud metadata address answers 403 on screenshot and 400 on crawl, sitemap and
// extract, which list no 403, and nothing is charged. The address is an IP literal, so no DNS is involved and
// even a target that resolves nothing (the mock) can judge it; none of it is ever fetched by a conforming target.

import { plural } from "@plumbline-kit/contract/report/plural";
import { describe, failure, measureCharge, ok, status, unreadableBalance } from "../check-helpers.ts";
import type { CheckDefinition, Exchange, Failure } from "../types.ts";

/** The AWS/GCP/Azure instance metadata endpoint, the classic SSRF target. */
export const METADATA_URL = "http://169.254.169.254/latest/meta-data/";

const EXPECTED: Record<string, number> = { crawl: 400, sitemap: 400, extract: 400, screenshot: 403 };
const PATHS: Record<string, string> = {
  crawl: "/crawl",
  sitemap: "/sitemap",
  extract: "/extract",
  screenshot: "/screenshot",
};

const targetRefusal: CheckDefinition = {
  id: "target-refusal",
  title: "A cloud-metadata target is refused, uncharged: 403 on screenshot, 400 on crawl, sitemap and extract",
  severity: "critical",
  section: "POST /screenshot; Errors",
  basis: { kind: "decision", decision: "D-target-refusal" },
  operations: Object.keys(EXPECTED),
  // nothing, on a conforming target; a target that serves the address anyway is charged at most the prices
  cost: (c, _alt, scope) =>
    scope.filter(Object.keys(EXPECTED)).reduce((sum, id) => sum + c.prices.entryCredits(id, { url: METADATA_URL }), 0),
  async run(ctx) {
    const ops = ctx.scope.filter(Object.keys(EXPECTED));
    const m = await measureCharge(ctx, this.id, async () => {
      const out: Array<[string, Exchange]> = [];
      for (const id of ops) {
        out.push([id, await ctx.http.call(this.id, "POST", PATHS[id], { body: { url: METADATA_URL } })]);
      }
      return out;
    });
    const failures: Failure[] = [];
    for (const [id, ex] of m.result) {
      if (status(ex) !== EXPECTED[id])
        failures.push(failure(`${id} of ${METADATA_URL} was not refused`, [ex], `${EXPECTED[id]}`, describe(ex)));
    }
    const exchanges = m.result.map(([, ex]) => ex);
    if (m.charged === null) failures.push(unreadableBalance(m));
    else if (m.charged !== 0)
      failures.push(failure("refused targets were charged", exchanges, "0 credits", `${plural(m.charged, "credit")}`));
    return failures.length ? { failures } : ok();
  },
};

export const TARGET_REFUSAL_CHECKS = [targetRefusal];
