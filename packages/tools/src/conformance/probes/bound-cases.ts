// Shared probe: every boundary case of spec/bounds.ts and every refusal the schemas imply beyond them
// (schema-refusals.ts: a sibling's fields, every type a property does not admit), for both published bound sets
// (D-bound-sets), packed into as few requests as the properties allow (bound-packing.ts): rejected cases on distinct fields share a request whose
// 422 must name each of them, valid edges share one (a batch-capable operation carries them as the entries of its
// largest batch), and the cases where the two sets differ go alone, since each is a verdict of its own, as do the
// values a decision adds to an enum (D-search-engine-values): a target that refuses one must not take the
// interface's own values down with it.
// Rejected requests are sent between two balance readings: rejected calls are free (D-charging). On an operation
// calibrated for the payment-refusal verdict (payment-refusal.ts), the valid groups priced over COSTLY_CREDITS go
// with an unpayable Payment credential and are judged by the 402 refusal at their price; the cheaper ones are paid.

import type { Contract } from "@plumbline-kit/contract";
import { type BoundCase, boundCases } from "@plumbline-kit/contract/bounds";
import { plural } from "@plumbline-kit/contract/report/plural";
import { type Measured, measureCharge } from "../check-helpers.ts";
import type { OperationScope } from "../operation-scope.ts";
import type { Exchange, Probe, RunContext } from "../types.ts";
import { asBatch, type Group, pack } from "./bound-packing.ts";
import { COSTLY_CREDITS, sendUnpaid } from "./payment-refusal.ts";
import { type RefusalCase, schemaRefusals } from "./schema-refusals.ts";
import { plannedShots, screenshotShotsProbe } from "./screenshot-shots.ts";
import { withReachableCase } from "./target-urls.ts";

export interface SentCase {
  case: BoundCase;
  primaryValid: boolean;
  altValid: boolean;
  exchange: Exchange;
  /** how many cases the request carried (1: sent alone) */
  packed: number;
  /** sent with the unpayable Payment credential after a successful calibration: judged by the 402 refusal */
  unpaid: boolean;
}

export interface BoundProbe {
  cases: SentCase[];
  /** the charge measured around the cases rejected by both sets (all operations, one measurement) */
  rejectedCharges: Array<{ operationId: string; measured: Measured<Exchange[]> }>;
  /** derived refusals not sent, per operation, to keep within the operation's own rate window */
  leftOut: Array<[string, number]>;
}

interface PlannedCase {
  case: BoundCase;
  primaryValid: boolean;
  altValid: boolean;
}

interface Request {
  operationId: string;
  kind: "rejected" | "valid" | "differing" | "decided" | "carried";
  group: Group<PlannedCase>;
  /** judged by the payment refusal (sent with the unpayable credential): costs nothing */
  unpaid?: boolean;
}

const caseKey = (c: BoundCase) => `${c.operationId} ${JSON.stringify(c.body)}`;

/** Valid screenshot cases the screenshot-shots probe carries (their verdict is read on its answers). */
function carriedByShots(primary: Contract, scope: OperationScope): Set<string> {
  if (!scope.has("screenshot")) return new Set();
  return new Set(plannedShots(primary).flatMap((s) => s.carries.map(caseKey)));
}

function cases(primary: Contract, alt: Contract, scope: OperationScope): PlannedCase[] {
  const seen = new Map<string, BoundCase>();
  // the edges of spec/bounds.ts, then the refusals the schemas imply beyond them (schema-refusals.ts)
  const all = [...boundCases(primary), ...boundCases(alt), ...schemaRefusals(primary), ...schemaRefusals(alt)];
  for (const c of all) {
    if (!scope.has(c.operationId)) continue;
    const key = caseKey(c);
    if (!seen.has(key)) seen.set(key, c);
  }
  return [...seen.values()].map((c) => ({
    case: c,
    primaryValid: primary.validators.checkBody(c.operationId, c.body).ok,
    altValid: alt.validators.checkBody(c.operationId, c.body).ok,
  }));
}

const costly = (primary: Contract, operationId: string, body: unknown) =>
  primary.prices.requestCredits(operationId, body) > COSTLY_CREDITS;

/**
 * The valid groups of one operation. Where the refusal verdict applies, the costly groups (the largest batch,
 * crawl_results at its maximum, a deepcrawl) go unpaid, the largest batch still carrying every edge as its entries,
 * and the cheap ones are executed: together as one batch where the operation takes batches.
 */
function validRequests(primary: Contract, operationId: string, packed: Array<Group<PlannedCase>>, refusal: boolean) {
  const carried = asBatch(primary, packed);
  if (!refusal) return carried.map((group): Request => ({ operationId, kind: "valid", group }));
  const isCostly = (g: Group<PlannedCase>) => costly(primary, operationId, g.body);
  const cheap = packed.filter((g) => !isCostly(g));
  const batch = carried.length === 1 && carried[0].padding !== undefined ? carried[0] : null;
  if (!batch) return packed.map((group): Request => ({ operationId, kind: "valid", group, unpaid: isCostly(group) }));
  const out: Request[] = [];
  const unpaid = packed.filter(isCostly).flatMap((g) => g.members);
  out.push({ operationId, kind: "valid", unpaid: true, group: { ...batch, members: unpaid } });
  if (cheap.length) {
    const body = cheap.length === 1 ? cheap[0].body : cheap.map((g) => g.body);
    out.push({ operationId, kind: "valid", group: { members: cheap.flatMap((g) => g.members), body } });
  }
  return out;
}

/**
 * The requests of the probe, per operation: rejected groups, valid groups, then differing cases alone. `refusal`:
 * the operations calibrated for the payment-refusal verdict.
 */
export function boundRequests(
  primary: Contract,
  alt: Contract,
  scope: OperationScope,
  refusal: ReadonlySet<string> = new Set(),
  /** filled with the derived refusals left out per operation, to keep within its own window */
  leftOut?: Map<string, number>,
): Request[] {
  const all = cases(primary, alt, scope);
  const carried = carriedByShots(primary, scope);
  const out: Request[] = [];
  for (const operationId of [...new Set(all.map((p) => p.case.operationId))]) {
    const mine = all.filter((p) => p.case.operationId === operationId);
    const both = [primary, alt];
    const rejected = mine.filter((p) => !p.primaryValid && !p.altValid);
    // the siblings' fields go in a request of their own (schema-refusals.ts), the rest packed together; on an
    // operation with a window of its own (D-rate-limits: /screenshot 10 a minute, which the run's other screenshot
    // calls fill) the derived refusals, the siblings' fields included, ride only in the requests its spec/bounds.ts
    // cases need anyway, and those that would need more are left out (counted)
    const windowed = primary.rateLimits.perOperation[operationId] !== undefined;
    const apart = (p: PlannedCase) => (windowed ? "" : ((p.case as RefusalCase).apart ?? ""));
    const derived = (p: PlannedCase) => (p.case as RefusalCase).derived === true;
    for (const key of [...new Set(rejected.map(apart))].sort())
      for (const group of pack(
        both,
        rejected.filter((p) => apart(p) === key),
        false,
      )) {
        if (windowed && key === "" && group.members.every(derived)) {
          leftOut?.set(operationId, (leftOut.get(operationId) ?? 0) + group.members.length);
          continue;
        }
        out.push({ operationId, kind: "rejected", group });
      }
    const valid = mine.filter((p) => p.primaryValid && p.altValid && !p.case.decision);
    for (const p of valid.filter((v) => carried.has(caseKey(v.case))))
      out.push({ operationId, kind: "carried", group: { members: [p], body: p.case.body } });
    const sendable = valid.filter((v) => !carried.has(caseKey(v.case)));
    const unpaid = (p: PlannedCase) => refusal.has(operationId) && costly(primary, operationId, p.case.body);
    // a costly edge judged by a refusal is packed apart from the cheap ones, which are executed
    const packed = [
      ...pack(both, sendable.filter(unpaid), true),
      ...pack(
        both,
        sendable.filter((v) => !unpaid(v)),
        true,
      ),
    ];
    out.push(...validRequests(primary, operationId, packed, refusal.has(operationId)));
    for (const p of mine.filter((m) => m.primaryValid !== m.altValid))
      out.push({ operationId, kind: "differing", group: { members: [p], body: p.case.body }, unpaid: unpaid(p) });
    for (const p of mine.filter((m) => m.primaryValid && m.altValid && m.case.decision))
      out.push({ operationId, kind: "decided", group: { members: [p], body: p.case.body }, unpaid: unpaid(p) });
  }
  return out;
}

/** The operations with a costly valid edge: those the payment-refusal verdict would spare (calibrated first). */
export function refusalCandidates(primary: Contract, alt: Contract, scope: OperationScope): string[] {
  const every = new Set(primary.contractOperations.map((o) => o.operationId));
  return [
    ...new Set(
      boundRequests(primary, alt, scope, every)
        .filter((r) => r.unpaid)
        .map((r) => r.operationId),
    ),
  ];
}

export interface BoundPlanRow {
  requests: number;
  credits: number;
  cases: number;
  /** requests judged by the payment refusal */
  unpaid: number;
  /** the credits the same cases would cost paid (the operation not calibrated) */
  paidCredits: number;
}

/** Requests and credits per operation, for the printed plan. */
export function boundCasesPlan(
  primary: Contract,
  alt: Contract,
  scope: OperationScope,
  refusal: ReadonlySet<string> = new Set(),
) {
  const rows = (set: ReadonlySet<string>) => {
    const per = new Map<string, BoundPlanRow>();
    for (const r of boundRequests(primary, alt, scope, set)) {
      const row = per.get(r.operationId) ?? { requests: 0, credits: 0, cases: 0, unpaid: 0, paidCredits: 0 };
      per.set(r.operationId, row);
      row.cases += r.group.members.length;
      if (r.kind === "carried") continue; // sent and counted by the screenshot-shots probe
      row.requests++;
      if (r.unpaid) row.unpaid++;
      else if (r.kind !== "rejected") row.credits += primary.prices.requestCredits(r.operationId, r.group.body);
    }
    return per;
  };
  const per = rows(refusal);
  for (const [op, paid] of rows(new Set())) {
    const row = per.get(op);
    if (row) row.paidCredits = paid.credits;
  }
  return per;
}

/** A group's body pointed at the fixture site on a target that fetches real pages (entry by entry for a batch). */
async function reachable(ctx: RunContext, r: Request): Promise<unknown> {
  const urlField = r.group.members.map((m) => m.case.field).find((f) => /\/url$/.test(f)) ?? "";
  if (!Array.isArray(r.group.body)) return withReachableCase(ctx, r.group.body, urlField);
  // every entry, padding included: an entry the target cannot fetch fails, and a batch of failures says nothing
  return Promise.all(r.group.body.map((entry) => withReachableCase(ctx, entry, "")));
}

/** An earlier answer to the very same accepted body (another probe's), judged again instead of paying twice. */
function earlier(ctx: RunContext, operationId: string, body: unknown): Exchange | undefined {
  const text = JSON.stringify(body);
  return ctx.http.exchanges.find(
    (e) =>
      e.operationId === operationId &&
      (e.response?.status ?? 0) >= 200 &&
      (e.response?.status ?? 0) < 300 &&
      JSON.stringify(e.sent) === text,
  );
}

export const boundCasesProbe: Probe<BoundProbe> = {
  id: "bound-cases",
  usesFixtureSite: true,
  uses: [screenshotShotsProbe],
  cost(primary, alt, scope, refusal) {
    // an upper bound: every request either set accepts is charged at its contract price, unless sent unpaid
    return [...boundCasesPlan(primary, alt, scope, refusal).values()].reduce((sum, r) => sum + r.credits, 0);
  },
  async run(ctx: RunContext) {
    const leftOut = new Map<string, number>();
    const requests = boundRequests(ctx.contract, ctx.altContract, ctx.scope, ctx.refusal.operations, leftOut);
    const sent: SentCase[] = [];
    const by = "probe:bound-cases";
    const send = async (r: Request) => {
      const path = ctx.contract.operation(r.operationId).path;
      const body = r.kind === "rejected" ? r.group.body : await reachable(ctx, r);
      // an executed answer to the very same body (another probe's) beats a refusal verdict, and costs nothing more
      const before = r.kind === "rejected" ? undefined : earlier(ctx, r.operationId, body);
      const exchange =
        before ??
        (r.unpaid
          ? await sendUnpaid(ctx.http, by, ctx.contract, r.operationId, body)
          : await ctx.http.call(by, "POST", path, { body }));
      const unpaid = !before && r.unpaid === true;
      for (const m of r.group.members) sent.push({ ...m, exchange, packed: r.group.members.length, unpaid });
      return exchange;
    };
    const rejected = requests.filter((r) => r.kind === "rejected");
    const measured = await measureCharge(ctx, "probe:bound-cases", async () => {
      const out: Exchange[] = [];
      for (const r of rejected) out.push(await send(r));
      return out;
    });
    const ops = [...new Set(rejected.map((r) => r.operationId))];
    for (const r of requests.filter((x) => x.kind === "valid" || x.kind === "differing" || x.kind === "decided"))
      await send(r);
    const carried = requests.filter((x) => x.kind === "carried");
    const shots = carried.length ? await ctx.probe(screenshotShotsProbe) : [];
    for (const r of carried) {
      const m = r.group.members[0];
      const shot = shots.find((s) => s.carries.some((c) => caseKey(c) === caseKey(m.case)));
      if (shot) sent.push({ ...m, exchange: shot.exchange, packed: shot.carries.length + 1, unpaid: false });
    }
    for (const op of new Set(requests.map((r) => r.operationId))) {
      const mine = requests.filter((r) => r.operationId === op && r.kind !== "carried");
      const n = requests.filter((r) => r.operationId === op).reduce((s, r) => s + r.group.members.length, 0);
      const unpaid = new Set(sent.filter((c) => c.unpaid && c.case.operationId === op).map((c) => c.exchange.id)).size;
      const refusal = unpaid ? ` (${unpaid} judged by a payment refusal, nothing spent)` : "";
      const out = leftOut.get(op) ? ` (${leftOut.get(op)} derived refusals left out: its own rate window)` : "";
      ctx.progress(`  bound cases of ${op}: ${plural(n, "case")} in ${plural(mine.length, "request")}${refusal}${out}`);
    }
    return {
      cases: sent,
      rejectedCharges: ops.length ? [{ operationId: ops.join(", "), measured }] : [],
      leftOut: [...leftOut],
    };
  },
};
