// OAuth access tokens on the API (interface-spec "Authentication" 1-2; issue 15): an access token issued by the
// authorization server stands for its user's account, so it is charged like the user's API keys, and /usage reports
// credential_type oauth with the token's client_id. The tokens are opaque and looked up in the authorization
// server's store on every call, so a revoked token (or a grant ended by refresh-token reuse) is refused at once.
// Works whether the authorization server is mounted in this process or runs apart on the same database.

import type { Account, AccountStore } from "@plumbline-kit/platform/stores";
import type { Kysely } from "kysely";
import type { AuthDatabase } from "./auth-schema.ts";

/** oidc-provider's opaque tokens: 43 base64url characters (256 bits); an API key never looks like one here. */
const OPAQUE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

interface AccessTokenPayload {
  accountId?: string;
  clientId?: string;
  grantId?: string;
  exp?: number;
}

export function createOAuthTokenLookup(db: Kysely<AuthDatabase>, now: () => number = Date.now) {
  const live = async (key: string) => {
    const row = await db
      .selectFrom("oidc_payloads")
      .select(["payload", "expires_at"])
      .where("key", "=", key)
      .executeTakeFirst();
    if (!row || (row.expires_at !== null && Number(row.expires_at) <= now())) return null;
    return JSON.parse(row.payload) as AccessTokenPayload & { consumed?: number };
  };
  return async function accountOfAccessToken(credential: string): Promise<Account | null> {
    if (!OPAQUE_TOKEN.test(credential)) return null;
    const token = await live(`AccessToken:${credential}`);
    if (!token?.accountId || !token.grantId || (token.exp !== undefined && token.exp * 1000 <= now())) return null;
    // the grant must still stand: revoking it (consent withdrawn, a refresh token reused) ends its tokens too
    if (!(await live(`Grant:${token.grantId}`))) return null;
    const user = await db
      .selectFrom("users")
      .select(["id", "account_id"])
      .where("id", "=", token.accountId)
      .executeTakeFirst();
    if (!user) return null;
    return { id: user.account_id, userId: user.id, credentialType: "oauth", clientId: token.clientId ?? null };
  };
}

/** The platform's account store, also taking the authorization server's access tokens. */
export function withOAuthTokens(accounts: AccountStore, db: Kysely<AuthDatabase>): AccountStore {
  const token = createOAuthTokenLookup(db);
  return {
    authenticate: async (credential) => (await accounts.authenticate(credential)) ?? token(credential),
    balance: (id) => accounts.balance(id),
    hold: (id, credits, meta) => accounts.hold(id, credits, meta),
    settle: (hold) => accounts.settle(hold),
    release: (hold) => accounts.release(hold),
    refund: (id, requestId) => accounts.refund(id, requestId),
  };
}
