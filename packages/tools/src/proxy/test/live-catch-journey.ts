// A client's journey through the live contract's /ask and /feedback (issue 39), as `plumbline bench proxy-catch`
// runs it through the proxy in front of the live mock: the balance read around an /ask with one engine made to fail
// and one with every engine failing (the mock's Prefer steering), a report, a report while the mock's store is made
// to fail, and eleven reports in a row by the empty account (the operation's window is ten a minute). Sequential, as
// a script's calls are. Test glue.
import { type JourneyCall, journeyCaller } from "./catch-journey.ts";

export interface LiveCatchJourneyOptions {
  /** where the client sends its requests (the proxy) */
  base: string;
  /** a key with credits */
  key: string;
  /** a key of an account with 0 credits (reports are free) */
  brokeKey: string;
  /** the mock's admin API, called directly (steering the store is the operator's, not the client's) */
  admin: string;
}

/**
 * Moves the mock's manual clock to the start of the next rate window (the windows are fixed, aligned to the epoch),
 * so a burst of reports that follows lies inside one window and its tenth answer says the whole window is left
 * (t=60), whatever time the mock started at: advancing by a window's length instead keeps the start's offset, and a
 * tenth answer at t=1 is one the proxy's feedback-rate-window cannot judge (a miss, about one run in sixty).
 */
export async function startNextWindow(admin: string, windowMs = 60_000): Promise<void> {
  const clock = (await (await fetch(`${admin}/__mock/clock`)).json()) as { epochMs: number };
  const time = new Date((Math.floor(clock.epochMs / windowMs) + 1) * windowMs).toISOString();
  const r = await fetch(`${admin}/__mock/clock/set`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ time }),
  });
  await r.arrayBuffer();
  if (!r.ok) throw new Error(`the mock's clock was not set to ${time}: ${r.status}`);
}

export async function runLiveCatchJourney(options: LiveCatchJourneyOptions): Promise<JourneyCall[]> {
  const { base, key, brokeKey, admin } = options;
  const calls: JourneyCall[] = [];
  const call = journeyCaller({ base, key, calls, requestIds: "live-journey" });
  const steerStore = (times: number) =>
    fetch(`${admin}/__mock/feedback/failures`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ times }),
    }).then((r) => r.arrayBuffer());
  const balance = () => call("balance", "GET", "/usage");

  await balance();
  await call(
    "ask, arxiv failing",
    "POST",
    "/ask",
    { query: "vector search papers on github this week" },
    {
      headers: { prefer: 'fail-engines="arxiv"' },
    },
  );
  await balance();
  await call(
    "ask, every engine failing",
    "POST",
    "/ask",
    { query: "vector search" },
    {
      headers: { prefer: 'fail-engines="google"' },
    },
  );
  await balance();
  await call("feedback", "POST", "/feedback", {
    message: "The sitemap call found no links on a site with two sitemaps.",
    category: "bug",
  });
  await steerStore(1);
  await call("feedback, the store failing", "POST", "/feedback", { message: "A report the store will not keep." });
  await steerStore(0);
  await balance();
  for (let i = 1; i <= 11; i++)
    await call(`feedback ${i} of 11`, "POST", "/feedback", { message: `report ${i} of a burst` }, { key: brokeKey });
  return calls;
}
