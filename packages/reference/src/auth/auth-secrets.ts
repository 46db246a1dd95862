// The authorization server's secrets, generated on first start and kept in the database (issue 15): the RSA key
// that signs ID tokens (its public half is the JWKS) and the keys that sign oidc-provider's and the account pages'
// cookies. Kept, so a restart (or a second instance) keeps every session and verifies what the first signed.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { AuthDatabase } from "./auth-schema.ts";

export interface AuthSecrets {
  /** private JWKs (oidc-provider's `jwks.keys`) */
  signingKeys: Array<Record<string, unknown>>;
  /** cookie signing keys, newest first */
  cookieKeys: string[];
}

async function loadOrCreate<T>(db: Kysely<AuthDatabase>, name: string, create: () => T): Promise<T> {
  const row = await db.selectFrom("auth_secrets").select("value").where("name", "=", name).executeTakeFirst();
  if (row) return JSON.parse(row.value) as T;
  // two instances starting together: the first insert wins and both read it back
  await db
    .insertInto("auth_secrets")
    .values({ name, value: JSON.stringify(create()) })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const stored = await db.selectFrom("auth_secrets").select("value").where("name", "=", name).executeTakeFirstOrThrow();
  return JSON.parse(stored.value) as T;
}

export async function loadAuthSecrets(db: Kysely<AuthDatabase>): Promise<AuthSecrets> {
  const signingKeys = await loadOrCreate(db, "signing-keys", () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const jwk = privateKey.export({ format: "jwk" });
    return [{ ...jwk, use: "sig", alg: "RS256", kid: randomBytes(8).toString("hex") }];
  });
  const cookieKeys = await loadOrCreate(db, "cookie-keys", () => [randomBytes(32).toString("base64url")]);
  return { signingKeys, cookieKeys };
}
