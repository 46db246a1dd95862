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
