// Pay-per-request in the reference's database (D-payment-charging, D-payment-challenge): the payments received,
// the used-credential claims that make a credential single use across every instance, and the HMAC secret that
// binds challenges to this deployment (created once, then shared by every instance on the same database).
// Its own tables and migration, on the same Kysely connection as the accounts.
import { randomBytes } from "node:crypto";
import type { PaymentRecord, PaymentStatus, PaymentStore } from "@plumbline-kit/platform/payment-store";
import type { Kysely } from "kysely";
import type { Database, Dialect } from "./schema.ts";

interface PaymentsTable {
  id: string;
  at: string;
  operation_id: string;
  request_id: string;
  method: string;
  amount: string;
  captured_amount: string;
  currency: string;
  receipt_id: string;
  challenge_id: string;
  status: string;
  refund_due: string;
}

interface PaymentClaimsTable {
  challenge_id: string;
  /** epoch ms after which the claim may be forgotten (its challenge has expired) */
  expires_at: number;
}

interface PaymentSecretsTable {
  name: string;
  secret: string;
  created_at: string;
}

export interface PaymentTables {
  payments: PaymentsTable;
  payment_claims: PaymentClaimsTable;
  payment_secrets: PaymentSecretsTable;
}

type Db = Kysely<Database & PaymentTables>;

export async function migratePayments(db: Kysely<Database>, _dialect: Dialect): Promise<void> {
  const d = db as unknown as Db;
  await d.schema
    .createTable("payments")
    .ifNotExists()
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("at", "varchar(32)", (c) => c.notNull())
    .addColumn("operation_id", "varchar(64)", (c) => c.notNull())
    .addColumn("request_id", "varchar(160)", (c) => c.notNull())
    .addColumn("method", "varchar(32)", (c) => c.notNull())
    .addColumn("amount", "varchar(40)", (c) => c.notNull())
    .addColumn("captured_amount", "varchar(40)", (c) => c.notNull())
    .addColumn("currency", "varchar(16)", (c) => c.notNull())
    .addColumn("receipt_id", "varchar(200)", (c) => c.notNull())
    .addColumn("challenge_id", "varchar(200)", (c) => c.notNull().unique())
    .addColumn("status", "varchar(24)", (c) => c.notNull())
    .addColumn("refund_due", "varchar(40)", (c) => c.notNull())
    .execute();
  await d.schema
    .createTable("payment_claims")
    .ifNotExists()
    .addColumn("challenge_id", "varchar(200)", (c) => c.primaryKey())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await d.schema
    .createTable("payment_secrets")
    .ifNotExists()
    .addColumn("name", "varchar(32)", (c) => c.primaryKey())
    .addColumn("secret", "varchar(128)", (c) => c.notNull())
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .execute();
}

/** The deployment's challenge secret: created at the first start, read by every later one. */
export async function paymentSecret(db: Kysely<Database>): Promise<string> {
  const d = db as unknown as Db;
  await d
    .insertInto("payment_secrets")
    .values({
      name: "challenge-hmac",
      secret: randomBytes(32).toString("base64url"),
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await d
    .selectFrom("payment_secrets")
    .select("secret")
    .where("name", "=", "challenge-hmac")
    .executeTakeFirstOrThrow();
  return row.secret;
}

export function createSqlPayments(db: Kysely<Database>): PaymentStore {
  const d = db as unknown as Db;
  let claims = 0;
  return {
    async claim(challengeId, expiresAtMs) {
      // the primary key makes the first claim win, on one instance or many
      const r = await d
        .insertInto("payment_claims")
        .values({ challenge_id: challengeId, expires_at: expiresAtMs })
        .onConflict((oc) => oc.column("challenge_id").doNothing())
        .executeTakeFirst();
      // expired claims cannot be replayed anyway (the challenge's expiry is checked first): swept now and then
      if (++claims % 200 === 0) await d.deleteFrom("payment_claims").where("expires_at", "<", Date.now()).execute();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
    async record(p) {
      await d
        .insertInto("payments")
        .values({
          id: p.id,
          at: p.at,
          operation_id: p.operationId,
          request_id: p.requestId,
          method: p.method,
          amount: p.amount,
          captured_amount: p.capturedAmount,
          currency: p.currency,
          receipt_id: p.receiptId,
          challenge_id: p.challengeId,
          status: p.status,
          refund_due: p.refundDue,
        })
        .execute();
    },
    async list(filter = {}) {
      let q = d.selectFrom("payments").selectAll().orderBy("at", "desc").orderBy("id", "desc");
      if (filter.operationId) q = q.where("operation_id", "=", filter.operationId);
      if (filter.limit) q = q.limit(filter.limit);
      const rows = await q.execute();
      return rows.map(
        (r): PaymentRecord => ({
          id: r.id,
          at: r.at,
          operationId: r.operation_id,
          requestId: r.request_id,
          method: r.method,
          amount: r.amount,
          capturedAmount: r.captured_amount,
          currency: r.currency,
          receiptId: r.receipt_id,
          challengeId: r.challenge_id,
          status: r.status as PaymentStatus,
          refundDue: r.refund_due,
        }),
      );
    },
  };
}
