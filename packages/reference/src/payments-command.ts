// `plumbline reference payments list` (declared in reference/cli.ts): the payments received with the Payment scheme
// (D-payment-charging), newest first.
import { openDatabase } from "./store/open-database.ts";
import { createSqlPayments, migratePayments } from "./store/sql-payments.ts";

export async function listPayments(o: {
  dataDir: string;
  databaseUrl?: string;
  limit?: number;
  json?: boolean;
}): Promise<number> {
  const opened = await openDatabase({ dataDir: o.dataDir, databaseUrl: o.databaseUrl });
  try {
    await migratePayments(opened.db, opened.dialect);
    const payments = await createSqlPayments(opened.db).list({ limit: o.limit });
    if (o.json) {
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
