// `plumbline reference feedback list` (declared in reference/cli.ts): the operator's view of POST /feedback's
// reports (the live contract, D-feedback), newest first, from the server's database. An account sees its own on
// the account page; this lists every account's.
import { openDatabase } from "./store/open-database.ts";
import { createSqlFeedbackStore, migrateFeedback } from "./store/sql-feedback.ts";

/** One line per report: control characters (a report's message is whatever a caller sent) shown as spaces. */
const oneLine = (s: string) => s.replace(/[\p{Cc}\u2028\u2029]+/gu, " ");

export async function listFeedback(o: {
  dataDir: string;
  databaseUrl?: string;
  limit?: number;
  account?: string;
  json?: boolean;
}): Promise<number> {
  const opened = await openDatabase({ dataDir: o.dataDir, databaseUrl: o.databaseUrl });
  try {
    await migrateFeedback(opened.db, opened.dialect);
    const store = createSqlFeedbackStore(opened.db);
    const reports = o.account
      ? await store.listForAccount(o.account, o.limit ?? Number.MAX_SAFE_INTEGER)
      : await store.listNewest(o.limit);
    if (o.json) {
      console.log(JSON.stringify(reports, null, 2));
      return 0;
    }
    if (reports.length === 0) console.log("no feedback reports");
    for (const r of reports) {
      const agent = r.agent ? `  agent ${oneLine([r.agent.name, r.agent.model].filter(Boolean).join(" / "))}` : "";
      const about = r.request_id ? `  about ${oneLine(r.request_id)}` : "";
      console.log(`${r.receivedAt}  ${r.id}  ${r.category}  account ${r.accountId}${about}${agent}`);
      console.log(`  ${oneLine(r.message)}`);
      if (r.intent) console.log(`  intent: ${oneLine(r.intent)}`);
    }
    return 0;
  } finally {
    await opened.close();
  }
}
