// `plumbline reference keys …` (declared in reference/cli.ts): account and key administration on the server's
// database. A refused key (unknown, revoked) is "could not run" (exit 2, the message naming it).
import { openDatabase } from "./store/open-database.ts";
import { createSqlAccounts, type SqlAccounts } from "./store/sql-accounts.ts";

interface Database {
  dataDir: string;
  databaseUrl?: string;
}

async function withAccounts(db: Database, use: (accounts: SqlAccounts) => Promise<number>): Promise<number> {
  const opened = await openDatabase({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
  try {
    return await use(createSqlAccounts(opened.db));
  } finally {
    await opened.close();
  }
}

export function createKey(o: Database & { credits: number; oauth?: boolean }): Promise<number> {
  return withAccounts(o, async (accounts) => {
    const { key, accountId } = await accounts.createAccount({
      credits: o.credits,
      credentialType: o.oauth ? "oauth" : "api_key",
    });
    console.log(`created account ${accountId} with ${o.credits} credits\nkey (shown once): ${key}`);
    return 0;
  });
}

export function listKeys(o: Database): Promise<number> {
  return withAccounts(o, async (accounts) => {
    for (const k of await accounts.listKeys()) {
      const state = k.revokedAt ? `revoked ${k.revokedAt}` : "active";
      console.log(`${k.prefix}…  ${k.accountId}  ${k.balance} credits  ${k.credentialType}  ${state}`);
    }
    return 0;
  });
}

export function rotateKey(key: string, o: Database): Promise<number> {
  return withAccounts(o, async (accounts) => {
    const r = await accounts.rotateKey(key);
    if (!r) throw new Error(`no active key ${key}`);
    console.log(`the old key is revoked\nnew key (shown once): ${r.key}`);
    return 0;
  });
}

export function revokeKey(key: string, o: Database): Promise<number> {
  return withAccounts(o, async (accounts) => {
    if (!(await accounts.revokeKey(key))) throw new Error(`no active key ${key}`);
    console.log(`revoked ${key.slice(0, 12)}…`);
    return 0;
  });
}

export function creditKey(key: string, credits: number, o: Database): Promise<number> {
  return withAccounts(o, async (accounts) => {
    const r = await accounts.credit(key, credits);
    if (!r) throw new Error(`no active key ${key}`);
    console.log(`balance now ${r.balance}`);
    return 0;
  });
}
