// The seeded faults of the live contract's /ask and /feedback (issue 39): each breaks one behaviour of the mock
// serving `--contract live` through the fault proxy (fault-proxy.ts) and names the check that owns it, as
// fault-variants.ts does for the seed. Read by live-fault-injection.test.ts.
import { randomBytes } from "node:crypto";
import { jsonOf, type ProxiedRequest, type ProxiedResponse, withJson } from "./fault-proxy.ts";
import type { Variant } from "./fault-variants.ts";

type Json = Record<string, unknown>;
type AskAnswer = { intent: { sources: string[] }; results: Array<Json & { relevance: number }>; errors: Json[] };

const askAnswered = (req: ProxiedRequest, res: ProxiedResponse) =>
  req.method === "POST" && req.path === "/ask" && res.status === 200;
const feedback = (req: ProxiedRequest) => req.method === "POST" && req.path === "/feedback";
/** A 201 as a store that kept the report would answer it. */
const created = (res: ProxiedResponse) =>
  withJson(
    { ...res, status: 201, headers: { ...res.headers, "content-type": "application/json; charset=utf-8" } },
    { id: `fb_${randomBytes(10).toString("hex")}`, status: "new" },
  );

/** An /ask answer with at least two results of different relevance (the fault needs something to break). */
function withResults(b: AskAnswer): AskAnswer {
  const source = b.intent.sources[0];
  const extra = (n: number, relevance: number) => ({
    title: `Padding result ${n}`,
    link: `https://example.com/plumbline-fault-${n}`,
    snippet: "A result the fault proxy adds so the fault has two results to work on.",
    source,
    relevance,
  });
  const results = [...b.results];
  if (results.length === 0) results.push(extra(1, 0.9));
  if (results.every((r) => r.relevance === results[0].relevance)) results.push(extra(2, 0.55));
  return { ...b, results };
}

export interface LiveVariant extends Variant {
  /** why no passive judge can see the fault in the traffic (only the service knows it): the suite's steering can */
  trafficBlind?: string;
}

export function liveFaultVariants(): LiveVariant[] {
  let askCharges = 0;
  return [
    {
      name: "an /ask result of relevance below 0.5 returned",
      fault: {
        rewrite: (req, res) => {
          if (!askAnswered(req, res)) return res;
          const b = withResults(jsonOf(res) as AskAnswer);
          return withJson(res, {
            ...b,
            results: [...b.results.slice(0, -1), { ...b.results.at(-1), relevance: 0.42 }],
          });
        },
      },
      only: ["ask-intent-phrases", "ask-relevance-order"],
      fails: "ask-relevance-order",
    },
    {
      name: "/ask results not best first",
      fault: {
        rewrite: (req, res) => {
          if (!askAnswered(req, res)) return res;
          const b = withResults(jsonOf(res) as AskAnswer);
          return withJson(res, { ...b, results: [...b.results].reverse() });
        },
      },
      only: ["ask-intent-phrases", "ask-relevance-order"],
      fails: "ask-relevance-order",
    },
    {
      // the balance read back as if no /ask had been charged
      name: "an /ask call not charged",
      fault: {
        rewrite: (req, res) => {
          if (askAnswered(req, res)) askCharges += 5;
          if (req.method !== "GET" || !req.path.startsWith("/usage") || res.status !== 200) return res;
          const b = jsonOf(res) as { usage: number };
          return withJson(res, { ...b, usage: b.usage + askCharges });
        },
      },
      only: ["ask-charged", "ask-engine-failures"],
      fails: "ask-charged",
    },
    {
      name: "an /ask engine that failed left out of errors",
      fault: {
        rewrite: (req, res) => (askAnswered(req, res) ? withJson(res, { ...(jsonOf(res) as Json), errors: [] }) : res),
      },
      only: ["ask-charged", "ask-engine-failures"],
      fails: "ask-engine-failures",
      trafficBlind: "which engine failed is the service's to know: an answer without it in errors looks like any other",
    },
    {
      name: "a report answered 201 while its store failed",
      fault: { rewrite: (req, res) => (feedback(req) && res.status === 503 ? created(res) : res) },
      only: ["feedback-stored", "feedback-limits"],
      fails: "feedback-stored",
      trafficBlind: "whether the store kept the report is the service's to know: the 201 looks like any other",
    },
    {
      name: "the eleventh report within a minute accepted",
      fault: { rewrite: (req, res) => (feedback(req) && res.status === 429 ? created(res) : res) },
      only: ["feedback-rate-limit"],
      fails: "feedback-rate-limit",
    },
  ];
}

export const LIVE_VARIANTS: LiveVariant[] = liveFaultVariants();
