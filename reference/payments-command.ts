// `plumbline reference payments list`: the payments received with the Payment scheme (D-payment-charging).
import { parseArgs } from "node:util";

export async function paymentsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "data-dir": { type: "string", default: "data" },
      "database-url": { type: "string" },
      limit: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (positionals[0] !== "list") throw new Error(`payments takes list, not "${positionals[0] ?? ""}"`);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1))
    throw new Error("--limit takes a whole number >= 1");
  const { openDatabase } = await import("./store/open-database.ts");
  const { createSqlPayments, migratePayments } = await import("./store/sql-payments.ts");
  const opened = await openDatabase({ dataDir: values["data-dir"], databaseUrl: values["database-url"] });
  try {
    await migratePayments(opened.db, opened.dialect);
    const payments = await createSqlPayments(opened.db).list({ limit });
    if (values.json) {
      console.log(JSON.stringify(payments, null, 2));
      return 0;
    }
    if (payments.length === 0) console.log("no payments");
    for (const p of payments) {
      const refund = p.refundDue !== "0" ? `  refund due ${p.refundDue}` : "";
      console.log(
        `${p.at}  ${p.operationId}  ${p.amount} ${p.currency}  ${p.method}  ${p.status} (captured ${p.capturedAmount})${refund}  receipt ${p.receiptId}  request ${p.requestId}`,
      );
    }
    return 0;
  } finally {
    await opened.close();
  }
}
