// `plumbline reference`: the reference implementation, and `plumbline reference keys …` to administer accounts.
import { parseArgs } from "node:util";

export const REFERENCE_HELP = `Usage: plumbline reference [--host 127.0.0.1] [--port 8080] [--data-dir DIR] [--database-url URL]
                           [--key KEY:CREDITS ...] [--allow-private-network] [--chromium PATH]
                           [--user-agent UA] [--rate-limit N] [--authorization-server URL] [--log]
                           [--parse-threads N]
       plumbline reference keys create --credits N [--oauth] [--data-dir DIR | --database-url URL]
       plumbline reference keys list|rotate KEY|revoke KEY|credit KEY N [--data-dir DIR | --database-url URL]

  --data-dir DIR          SQLite database in DIR/plumbline.db (default ./data): zero set-up
  --database-url URL      postgres://… for several instances sharing accounts, credits and rate limits
  --key KEY:CREDITS       seed an account with this key at start (repeatable; tests and demos)
  --allow-private-network let targets on loopback and private addresses be fetched (test fixture sites);
                          without it they are refused after DNS resolution and on every redirect
  --chromium PATH         Chromium for the crawl's browser fallback (default $PLUMBLINE_CHROMIUM, /usr/bin/chromium)
  --user-agent UA         User-Agent of outbound requests; name your contact page, e.g.
                          "examplebot/1.0 (+https://example.com/bot)" (default plumbline-reference/VERSION)
  --authorization-server URL
                          the OAuth authorization server (issuer URL) the protected-resource metadata names;
                          without it authorization_servers is empty: this reference issues no OAuth tokens
  --parse-threads N       worker threads parsing pages (default: the cores; D-parse-limits)
  KEY in keys commands    a whole key or its printed prefix (the first 12 characters)

Implemented so far: the platform (auth, credits, batches, rate limits, discovery), POST /crawl and
POST /sitemap; the other operations answer 502 until they land.`;

const common = {
  "data-dir": { type: "string" as const, default: "data" },
  "database-url": { type: "string" as const },
  help: { type: "boolean" as const, short: "h", default: false },
};

function parseKey(spec: string) {
  const [key, credits, type] = spec.split(":");
  const n = Number(credits);
  if (!key || !Number.isSafeInteger(n) || n < 0 || (type && type !== "oauth")) {
    throw new Error(`--key takes KEY:CREDITS[:oauth], not "${spec}"`);
  }
  return { key, credits: n, credentialType: type === "oauth" ? ("oauth" as const) : ("api_key" as const) };
}

async function keysCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...common, credits: { type: "string" }, oauth: { type: "boolean", default: false } },
  });
  const [action, target, amount] = positionals;
  // imported here, not at the top: `--help` and bad arguments answer without loading the database drivers
  const { openDatabase } = await import("./store/open-database.ts");
  const { createSqlAccounts } = await import("./store/sql-accounts.ts");
  const opened = await openDatabase({ dataDir: values["data-dir"], databaseUrl: values["database-url"] });
  const accounts = createSqlAccounts(opened.db);
  try {
    switch (action) {
      case "create": {
        const credits = Number(values.credits ?? "0");
        if (!Number.isSafeInteger(credits) || credits < 0) throw new Error("--credits takes a whole number >= 0");
        const { key, accountId } = await accounts.createAccount({
          credits,
          credentialType: values.oauth ? "oauth" : "api_key",
        });
        console.log(`created account ${accountId} with ${credits} credits\nkey (shown once): ${key}`);
        return 0;
      }
      case "list":
        for (const k of await accounts.listKeys()) {
          console.log(
            `${k.prefix}…  ${k.accountId}  ${k.balance} credits  ${k.credentialType}  ${k.revokedAt ? `revoked ${k.revokedAt}` : "active"}`,
          );
        }
        return 0;
      case "rotate": {
        const r = target ? await accounts.rotateKey(target) : null;
        if (!r) throw new Error(`no active key ${target ?? "(none given)"}`);
        console.log(`the old key is revoked\nnew key (shown once): ${r.key}`);
        return 0;
      }
      case "revoke":
        if (!target || !(await accounts.revokeKey(target)))
          throw new Error(`no active key ${target ?? "(none given)"}`);
        console.log(`revoked ${target.slice(0, 12)}…`);
        return 0;
      case "credit": {
        const n = Number(amount);
        if (!target || !Number.isSafeInteger(n) || n <= 0)
          throw new Error("credit takes KEY and a whole number of credits > 0");
        const r = await accounts.credit(target, n);
        if (!r) throw new Error(`no active key ${target}`);
        console.log(`balance now ${r.balance}`);
        return 0;
      }
      default:
        throw new Error(`keys takes create, list, rotate, revoke or credit, not "${action ?? ""}"`);
    }
  } finally {
    await opened.close();
  }
}

export async function referenceCommand(argv: string[]): Promise<number> {
  if (argv[0] === "keys") return keysCommand(argv.slice(1));
  const { values } = parseArgs({
    args: argv,
    options: {
      ...common,
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "8080" },
      key: { type: "string", multiple: true },
      "allow-private-network": { type: "boolean", default: false },
      chromium: { type: "string" },
      "user-agent": { type: "string" },
      "authorization-server": { type: "string" },
      "rate-limit": { type: "string" },
      "parse-threads": { type: "string" },
      log: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(REFERENCE_HELP);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port takes 0..65535, not "${values.port}"`);
  const perAccount = values["rate-limit"] === undefined ? undefined : Number(values["rate-limit"]);
  if (perAccount !== undefined && (!Number.isInteger(perAccount) || perAccount < 0))
    throw new Error("--rate-limit takes a whole number >= 0");
  const userAgent = values["user-agent"];
  if (userAgent !== undefined && !/^[\x20-\x7e]{1,256}$/.test(userAgent))
    throw new Error("--user-agent takes 1..256 printable ASCII characters");
  const authorizationServer = values["authorization-server"];
  if (authorizationServer !== undefined && !/^https?:\/\/[^\s/]+/.test(authorizationServer))
    throw new Error("--authorization-server takes an http(s) URL");
  const threads = values["parse-threads"] === undefined ? undefined : Number(values["parse-threads"]);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 64))
    throw new Error("--parse-threads takes 1..64");
  const { startReference } = await import("./start-reference.ts");
  const ref = await startReference({
    host: values.host,
    port,
    dataDir: values["data-dir"],
    databaseUrl: values["database-url"],
    keys: (values.key ?? []).map(parseKey),
    allowPrivateNetwork: values["allow-private-network"],
    chromiumPath: values.chromium,
    userAgent,
    authorizationServer,
    rateLimits: perAccount === undefined ? undefined : { perAccount },
    parsing: threads === undefined ? undefined : { threads },
    logger: values.log,
  });
  console.log(`plumbline reference listening on ${ref.url} (${ref.database})`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal}: closing`);
      ref.close().then(resolve, resolve);
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });
  return 0;
}
