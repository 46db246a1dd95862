// Crash safety of the credit ledger (issue 38): the reference's serving process is killed with SIGKILL in a burst
// of paid calls, with holds open in the database; restarted on the same data, the dead instance's holds are
// released, the balance is the initial credits minus the ledger's rows, and every success a client saw has its row
// (matched by the request id the client sent). SQLite, and PostgreSQL with two instances, one of them killed: the
// other's calls in flight settle as usual.
import { describe, expect, it } from "vitest";
import { type CrashOutcome, crashMidBurst, unchargedSuccesses } from "../../../../test-support/ledger-crash.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;
// the restart, which nothing kills and which only finds the database as the crash left it, runs in this process (a
// `plumbline reference` process costs ~3 CPU-s to start); the killed server and PostgreSQL's survivor are processes
const restartInProcess = true;

function expectNothingLost(out: CrashOutcome) {
  expect(out.openHolds).toBe(0);
  expect(out.creditsLost).toBe(0);
  expect(out.balance).toBe(out.initial - out.ledgerCredits);
  expect(unchargedSuccesses(out)).toEqual([]);
  // the crash happened mid-burst: holds were left open by the killed server, and were released, not charged
  expect(out.orphanedHolds).toBeGreaterThan(0);
  const killedCrawls = out.calls.filter((c) => c.server === "killed" && c.operation === "crawl");
  expect(killedCrawls.every((c) => c.status === 0)).toBe(true);
  expect(killedCrawls.filter((c) => out.ledgerRequestIds.has(c.requestId))).toEqual([]);
  // successes were seen before the kill, and each is charged
  const seen = out.calls.filter((c) => c.status === 200);
  expect(seen.length).toBeGreaterThan(0);
  expect(out.ledgerCredits).toBeGreaterThanOrEqual(seen.length);
}

describe("PostgreSQL for the two-instance crash", () => {
  it("is configured wherever it is required", () => {
    if (process.env.PLUMBLINE_REQUIRE_POSTGRES === "1") expect(PG, "PLUMBLINE_TEST_DATABASE_URL").toMatch(/^postgres/);
  });
});

describe("kill -9 of the reference mid-burst", () => {
  it("on SQLite loses no credit and charges every success seen", { timeout: 120_000 }, async () => {
    const out = await crashMidBurst({ searches: 300, crawls: 20, restartInProcess });
    expectNothingLost(out);
  });

  it.skipIf(!PG)(
    "on PostgreSQL with two instances: the killed one's holds are released, the other's settle",
    { timeout: 120_000 },
    async () => {
      const out = await crashMidBurst({
        databaseUrl: PG as string,
        schema: "ledger_crash_test",
        searches: 300,
        crawls: 10,
        restartInProcess,
      });
      expectNothingLost(out);
      // the survivor's crawls were in flight at the kill: they finished, each charged
      const survivorCrawls = out.calls.filter((c) => c.server === "survivor" && c.operation === "crawl");
      expect(survivorCrawls.map((c) => c.status)).toEqual(survivorCrawls.map(() => 200));
      expect(survivorCrawls.every((c) => out.ledgerRequestIds.has(c.requestId))).toBe(true);
    },
  );
});
