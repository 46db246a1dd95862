// `plumbline reference` as an operator runs it: structured JSON logs (pino) with request ids and never a
// credential, and a graceful shutdown on SIGTERM that lets an in-flight call finish (issue 5 "Platform").
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it, vi } from "vitest";
import { type ReferenceProcess, startReferenceProcess } from "../../../../test-support/reference-process.ts";

const KEY = "plb_secret_key_for_the_log_test";
let ref: ReferenceProcess | undefined;
afterAll(async () => ref?.stop());

it("logs JSON lines with request ids and no credential, and exits 0 on SIGTERM", async () => {
  ref = await startReferenceProcess({ keys: [`${KEY}:5`], args: ["--log", "--rate-limit", "0"] });
  let out = "";
  ref.child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const auth = { authorization: `Bearer ${KEY}` };
  expect((await fetch(`${ref.url}/usage`, { headers: auth })).status).toBe(200);
  if (process.platform === "linux") {
    // issue 12: every thread but the event loop's runs below it (parse workers, V8's collectors, libuv's pool)
    const pid = ref.serverPid();
    const nice = (tid: string) =>
      Number(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1].split(" ")[16]);
    // (a parse worker lowers itself once its module has loaded, which a cold start may still be doing)
    await vi.waitFor(
      () => {
        const tids = readdirSync(`/proc/${pid}/task`);
        expect(tids.length).toBeGreaterThan(4);
        for (const tid of tids) expect(nice(tid), `thread ${tid}`).toBe(Number(tid) === pid ? 0 : 19);
      },
      { timeout: 15_000, interval: 200 },
    );
  }
  expect((await fetch(`${ref.url}/usage`, { headers: { authorization: `Bearer ${KEY}x` } })).status).toBe(401);
  // an upstream failure is logged too; the key must not ride along with it
  const failed = await fetch(`${ref.url}/crawl`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ url: "http://127.0.0.1:9/nothing-listens-here" }),
  });
  expect(failed.status).toBe(502);
  // a crawl in flight when SIGTERM arrives still gets its answer before the process exits
  // the page is asked for (the crawl is in flight), and answers only once the server has taken the SIGTERM: events,
  // not a guess at how long this machine takes to get there
  let asked: () => void = () => {};
  const pageAsked = new Promise<void>((r) => {
    asked = r;
  });
  let answer: () => void = () => {};
  const mayAnswer = new Promise<void>((r) => {
    answer = r;
  });
  const slow = createServer((_req, res) => {
    asked();
    void mayAnswer.then(() => res.end("<html><head><title>Slow</title></head><body><p>slow page</p></body></html>"));
  });
  await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
  const inFlight = fetch(`${ref.url}/crawl`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, enableFallback: false }),
  });
  await pageAsked;
  const exited = new Promise<number | null>((r) => ref?.child.once("exit", (code) => r(code)));
  ref.child.kill("SIGTERM");
  await vi.waitFor(() => expect(out).toContain("SIGTERM: closing"), { timeout: 30_000, interval: 20 });
  answer();
  expect((await inFlight).status).toBe(200);
  const answeredAt = Date.now();
  expect(await exited).toBe(0);
  // not held back by this client's keep-alive connection (Node keeps an idle one open for 72 s)
  expect(Date.now() - answeredAt).toBeLessThan(10_000);
  slow.close();

  const lines = out.split("\n").filter((l) => l.startsWith("{"));
  expect(lines.length).toBeGreaterThanOrEqual(8); // incoming + completed for each of the four calls
  const records = lines.map((l) => JSON.parse(l) as { reqId?: string; msg: string });
  expect(records.filter((r) => r.msg === "request completed").every((r) => /^req_/.test(r.reqId ?? ""))).toBe(true);
  expect(out).not.toContain(KEY);
  expect(out).not.toContain(KEY.slice(12));
}, 90_000);
