// `plumbline reference`: the reference implementation, and `plumbline reference keys …` to administer accounts.
import { randomFill } from "node:crypto";
import { parseArgs } from "node:util";
import { parentEnded } from "../bin/relaunch.js";
import { DEEPCRAWL_FLAGS, deepcrawlOptions } from "./deepcrawl/deepcrawl-flags.ts";
import { INDEX_HELP, indexCommand } from "./search/index-command.ts";
import { parseSearchUpstreams, SEARCH_UPSTREAM_FLAGS, SEARCH_UPSTREAM_HELP } from "./search/upstream-flags.ts";

export const REFERENCE_HELP = `Usage: plumbline reference [--host 127.0.0.1] [--port 8080] [--data-dir DIR] [--database-url URL]
                           [--key KEY:CREDITS ...] [--allow-private-network] [--chromium PATH]
                           [--user-agent UA] [--rate-limit N] [--authorization-server URL] [--log]
                           [--github-trending-url URL] [--hackernews-trending-url URL] [--model-url URL --model NAME]
                           [--model-timeout MS] [--browser-contexts N] [--browser-spares N] [--parse-threads N] [--sqlite-synchronous normal|full]
                           [--issuer URL] [--starting-credits N] [--cookie-secure auto|always|never] [--no-auth-server]
       plumbline reference auth-server [--host 127.0.0.1] [--port 8081] [--data-dir DIR | --database-url URL]
                           [--issuer URL] [--starting-credits N] [--cookie-secure auto|always|never] [--log]
                           [--resource-origin URL ...]
                           [--package-dir DIR] [--deepcrawl-max-pages N] [--deepcrawl-max-mb N]
                           [--package-store s3://BUCKET[/PREFIX] [--s3-endpoint URL] [--s3-region REGION]
                            [--s3-force-path-style]]
                           [--deepcrawl-max-seconds S] [--deepcrawl-concurrency N] [--deepcrawl-delay-ms MS]
                           [--deepcrawl-lease-seconds S] [--zip-url-ttl S]
                           [--searxng-url URL] [--wikipedia-url URL] [--arxiv-url URL] [--github-api-url URL]
                           [--hackernews-url URL] [--public-search-apis] [--upstream-timeout MS]
                           [--mcp-url URL] [--site-url URL]
                           [--user-agent UA] [--rate-limit N] [--authorization-server URL]
                           [--payment-test-key KEY] [--payment-method SPEC ...] [--log]
       plumbline reference keys create --credits N [--oauth] [--data-dir DIR | --database-url URL]
       plumbline reference keys list|rotate KEY|revoke KEY|credit KEY N [--data-dir DIR | --database-url URL]
${INDEX_HELP}

  --data-dir DIR          SQLite database in DIR/plumbline.db (default ./data): zero set-up
  --database-url URL      postgres://… for several instances sharing accounts, credits and rate limits
  --key KEY:CREDITS       seed an account with this key at start (repeatable; tests and demos)
  --allow-private-network let targets on loopback and private addresses be fetched (test fixture sites);
                          without it they are refused after DNS resolution and on every redirect
  --chromium PATH         Chromium for /screenshot and the crawl's browser fallback (default $PLUMBLINE_CHROMIUM,
                          /usr/bin/chromium)
  --browser-contexts N    pages rendered at once (default 4); up to 2N more wait, further callers get 503
  --browser-spares N      fresh contexts kept ready, their renderer started (default 2; 0 starts one per page:
                          200-800 ms more per screenshot, no idle renderer processes)
  --user-agent UA         User-Agent of outbound requests; name your contact page, e.g.
                          "examplebot/1.0 (+https://example.com/bot)" (default plumbline-reference/VERSION)
  --authorization-server URL
                          an OAuth authorization server running apart (\`reference auth-server\` on the same
                          database) that the protected-resource metadata names instead of the mounted one
  --issuer URL            the mounted authorization server's public issuer URL when a proxy stands in front
                          (default: the address it listens on); X-Forwarded-* headers are then trusted
  --starting-credits N    credits of an account created on the sign-up page (default 100)
  --cookie-secure MODE    Secure on the account pages' cookies: auto (when the browser is on https, or the
                          issuer is https), always, never (default auto)
  --no-auth-server        mount no authorization server: authorization_servers is empty, no OAuth tokens
  auth-server             the authorization server and account pages alone (/oauth/…, /account, RFC 8414
                          metadata); the API recognises its tokens when both use the same database
  --resource-origin URL   (auth-server) the API's origin, and its MCP endpoint's when apart (repeatable): tokens
                          are issued for RFC 8707 resources there, beside the server's own origin
  --github-trending-url URL
                          where /trending reads GitHub's trending page (default https://github.com)
  --hackernews-trending-url URL
                          where /trending reads the Hacker News API (default https://hacker-news.firebaseio.com)
  --model-url URL         an OpenAI-compatible API base (…/v1) for /extract; its key is read from the
                          environment, PLUMBLINE_MODEL_API_KEY, never from a flag. Without it /extract fills
                          response_format from the page's structured data, tables, lists and text
  --model NAME            the model to ask (with --model-url)
  --model-timeout MS      the longest a model call may take (default 60000)
  --package-dir DIR       where deepcrawl packages are written (default DATA_DIR/packages); instances sharing
                          a --database-url must share this directory too, or a bucket (--package-store)
  --package-store s3://BUCKET[/PREFIX]
                          write deepcrawl packages to an S3-compatible bucket instead (streamed multipart
                          uploads under PREFIX/), which every instance on the --database-url reads; checked at
                          start. Credentials from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
                          AWS_SESSION_TOKEN) or the AWS SDK's profiles and roles, never from a flag
  --s3-endpoint URL       an S3-compatible service (MinIO, Ceph, R2, …) instead of AWS
  --s3-region REGION      the bucket's region (default $AWS_REGION, else us-east-1)
  --s3-force-path-style   address the bucket as ENDPOINT/BUCKET/KEY (MinIO and most self-hosted stores need it)
  --deepcrawl-max-pages N, --deepcrawl-max-mb N, --deepcrawl-max-seconds S
                          limits of one deepcrawl task (default 500 pages, 100 MB of documents, 900 s); a task
                          that reaches one completes with what it fetched and names it in manifest.json
  --deepcrawl-concurrency N  pages of one task fetched at once (default 4)
  --deepcrawl-delay-ms MS least time between two requests to one host (default 250; robots.txt may ask more)
  --deepcrawl-lease-seconds S
                          a task whose instance died is taken over after S seconds (default 30)
  --zip-url-ttl S         how long a signed zipUrl stays valid (default 3600)
${SEARCH_UPSTREAM_HELP}
                          the OAuth authorization server (issuer URL) the protected-resource metadata names;
                          without it authorization_servers is empty: this reference issues no OAuth tokens
  --mcp-url URL           {mcp_url}: the hosted MCP endpoint is {mcp_url}/mcp (default: the base URL)
  --site-url URL          {site_url} named by the discovery documents (default: the base URL)
  --payment-test-key KEY  accept the local test payment method, credentials signed with KEY (D-payment-methods);
                          with no payment method at all, a fresh test key is made and printed at start
  --payment-method SPEC   accept a production method (repeatable): tempo:currency=0x…,recipient=0x…[,testnet]
                          or stripe:network-id=ID[,payment-method-types=card+link][,decimals=2] with
                          STRIPE_SECRET_KEY in the environment (both settle on networks: not exercised offline)
       plumbline reference payments list [--limit N] [--json] [--data-dir DIR | --database-url URL]
                          the payments received with the Payment scheme, newest first
  --parse-threads N       worker threads parsing pages (default: the cores; D-parse-limits)
  --sqlite-synchronous normal|full
                          SQLite commit durability (default normal: safe across a crash of the process, the last
                          commits may be lost on a power loss; full: every commit synced, slower)
  KEY in keys commands    a whole key or its printed prefix (the first 12 characters)
  index add URL...        fill the search index from each site's sitemap (else its links): every page is fetched
                          and indexed; /crawl, crawl_results and deepcrawl add the pages they fetch too

Process: the server runs in a child Node started with --single-threaded-gc (V8 reads it only at start; it
halves the collectors' CPU per crawl), the command staying as a thin parent: signals are passed on (Ctrl-Z and
fg too), the exit code or signal is the server's, and the server closes when the parent ends, kill -9 included;
a SIGTERM or SIGINT repeated while it closes is ignored. One process instead: PLUMBLINE_RELAUNCH=0, or Node
started with --single-threaded-gc or an --inspect flag (on its command line or in NODE_OPTIONS).

Implemented: every operation of the contract on the platform (auth, credits, batches, rate limits,
discovery), with the OAuth authorization server and the account pages (/account: sign up, sign in, consent,
dashboard).`;

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

const authOptions = {
  issuer: { type: "string" as const },
  "starting-credits": { type: "string" as const },
  "cookie-secure": { type: "string" as const, default: "auto" },
};

/** The authorization-server flags, checked (exit 2 on a bad one). */
function parseAuthFlags(values: { issuer?: string; "starting-credits"?: string; "cookie-secure"?: string }) {
  const issuer = values.issuer;
  if (issuer !== undefined && !/^https?:\/\/[^\s/]+/.test(issuer)) throw new Error("--issuer takes an http(s) URL");
  const credits = values["starting-credits"] === undefined ? undefined : Number(values["starting-credits"]);
  if (credits !== undefined && (!Number.isSafeInteger(credits) || credits < 0))
    throw new Error("--starting-credits takes a whole number >= 0");
  const mode = values["cookie-secure"] ?? "auto";
  if (mode !== "auto" && mode !== "always" && mode !== "never")
    throw new Error(`--cookie-secure takes auto, always or never, not "${mode}"`);
  return { issuer, startingCredits: credits, cookieSecure: mode as "auto" | "always" | "never" };
}

/**
 * Why the server must close: SIGINT, SIGTERM or `also` (the end of the parent it must not outlive,
 * bin/relaunch.js). Listened for before the server says it listens, so a signal sent as soon as a caller reads that
 * line is not fatal; a signal repeated while closing is ignored (systemd sends SIGTERM to every process of the unit,
 * and the parent passes its own on too).
 */
function stopRequested(also?: Promise<string>): Promise<string> {
  return new Promise((resolve) => {
    process.on("SIGINT", () => resolve("SIGINT"));
    process.on("SIGTERM", () => resolve("SIGTERM"));
    also?.then(resolve);
  });
}

/** Closes once a stop is requested; then lets go of the parent's channel, if any, so the process can end. */
async function closeOn(stop: Promise<string>, close: () => Promise<void>): Promise<void> {
  console.log(`${await stop}: closing`);
  await close().catch(() => {});
  if (process.connected) process.disconnect();
}

async function authServerCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...common,
      ...authOptions,
      "resource-origin": { type: "string", multiple: true },
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "8081" },
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
  const auth = parseAuthFlags(values);
  const resourceOrigins = values["resource-origin"] ?? [];
  for (const o of resourceOrigins)
    if (!/^https?:\/\/[^\s/]+\/?$/.test(o)) throw new Error(`--resource-origin takes an http(s) origin, not "${o}"`);
  const { startAuthServer } = await import("./auth/start-auth-server.ts");
  const server = await startAuthServer({
    resourceOrigins,
    host: values.host,
    port,
    dataDir: values["data-dir"],
    databaseUrl: values["database-url"],
    logger: values.log,
    ...auth,
  });
  const stop = stopRequested();
  console.log(`plumbline auth server listening on ${server.url} (issuer ${server.issuer}; ${server.database})`);
  await closeOn(stop, () => server.close());
  return 0;
}

export async function referenceCommand(argv: string[]): Promise<number> {
  if (argv[0] === "keys") return keysCommand(argv.slice(1));
  if (argv[0] === "auth-server") return authServerCommand(argv.slice(1));
  if (argv[0] === "index") return indexCommand(argv.slice(1));
  if (argv[0] === "payments") return (await import("./payments-command.ts")).paymentsCommand(argv.slice(1));
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
      "mcp-url": { type: "string" },
      "site-url": { type: "string" },
      "rate-limit": { type: "string" },
      "github-trending-url": { type: "string" },
      "hackernews-trending-url": { type: "string" },
      "model-url": { type: "string" },
      model: { type: "string" },
      "model-timeout": { type: "string" },
      "parse-threads": { type: "string" },
      "sqlite-synchronous": { type: "string" },
      log: { type: "boolean", default: false },
      ...authOptions,
      "no-auth-server": { type: "boolean", default: false },
      "browser-contexts": { type: "string" },
      "browser-spares": { type: "string" },
      ...DEEPCRAWL_FLAGS,
      ...SEARCH_UPSTREAM_FLAGS,
      "payment-test-key": { type: "string" },
      "payment-method": { type: "string", multiple: true },
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
  for (const flag of ["github-trending-url", "hackernews-trending-url", "model-url"] as const) {
    const v = values[flag];
    if (v !== undefined && !/^https?:\/\/[^\s/]+/.test(v)) throw new Error(`--${flag} takes an http(s) URL`);
  }
  if (values["model-url"] && !values.model) throw new Error("--model-url needs --model NAME");
  const modelTimeout = values["model-timeout"] === undefined ? undefined : Number(values["model-timeout"]);
  if (modelTimeout !== undefined && (!Number.isInteger(modelTimeout) || modelTimeout < 1000))
    throw new Error("--model-timeout takes a whole number of milliseconds >= 1000");
  const auth = parseAuthFlags(values);
  const contexts = values["browser-contexts"] === undefined ? undefined : Number(values["browser-contexts"]);
  if (contexts !== undefined && (!Number.isInteger(contexts) || contexts < 1 || contexts > 64))
    throw new Error("--browser-contexts takes 1..64");
  const spares = values["browser-spares"] === undefined ? undefined : Number(values["browser-spares"]);
  if (spares !== undefined && (!Number.isInteger(spares) || spares < 0 || spares > 16))
    throw new Error("--browser-spares takes 0..16");
  const searchUpstreams = parseSearchUpstreams(values);
  for (const flag of ["mcp-url", "site-url"] as const)
    if (values[flag] !== undefined && !/^https?:\/\/[^\s/]+/.test(values[flag] as string))
      throw new Error(`--${flag} takes an http(s) URL`);
  const { paymentMethodsFromFlags } = await import("./platform/payment-methods.ts");
  const payment = paymentMethodsFromFlags(values["payment-test-key"], values["payment-method"], process.env);
  const threads = values["parse-threads"] === undefined ? undefined : Number(values["parse-threads"]);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 64))
    throw new Error("--parse-threads takes 1..64");
  const sqliteSynchronous = values["sqlite-synchronous"];
  if (sqliteSynchronous !== undefined && sqliteSynchronous !== "normal" && sqliteSynchronous !== "full")
    throw new Error("--sqlite-synchronous takes normal or full");
  const { startReference } = await import("./start-reference.ts");
  const ref = await startReference({
    host: values.host,
    port,
    dataDir: values["data-dir"],
    databaseUrl: values["database-url"],
    sqliteSynchronous,
    keys: (values.key ?? []).map(parseKey),
    allowPrivateNetwork: values["allow-private-network"],
    chromiumPath: values.chromium,
    browserContexts: contexts,
    browserQueue: contexts === undefined ? undefined : 2 * contexts,
    browserSpares: spares,
    userAgent,
    authorizationServer,
    authServer: !values["no-auth-server"],
    ...auth,
    mcpUrl: values["mcp-url"],
    siteUrl: values["site-url"],
    rateLimits: perAccount === undefined ? undefined : { perAccount },
    trending: { githubUrl: values["github-trending-url"], hackernewsUrl: values["hackernews-trending-url"] },
    extractModel: values["model-url"]
      ? {
          url: values["model-url"],
          model: values.model as string,
          apiKey: process.env.PLUMBLINE_MODEL_API_KEY,
          timeoutMs: modelTimeout,
        }
      : undefined,
    parsing: threads === undefined ? undefined : { threads },
    logger: values.log,
    paymentTestKey: values["payment-test-key"],
    paymentMethods: payment.filter((m) => m.method !== "test"),
    ...deepcrawlOptions(values),
    searchUpstreams,
  });
  const stop = stopRequested(parentEnded());
  // the process is the reference's own: every thread but the event loop's runs below it (parse workers, V8's
  // garbage collectors, libuv's pool; issue 12). startReference() in another program leaves that program's threads be.
  const { lowerHelperThreads } = await import("./engines/parse/thread-priority.ts");
  const { steadyHeapGrowth } = await import("./engines/parse/heap-growth.ts");
  steadyHeapGrowth();
  const { DEFAULT_PARSE_POOL } = await import("./engines/parse/parse-pool.ts");
  // libuv starts its pool's threads on first use: start them now, so they are lowered too
  await new Promise((done) => randomFill(new Uint8Array(1), done));
  lowerHelperThreads(DEFAULT_PARSE_POOL.nice);
  console.log(`plumbline reference listening on ${ref.url} (${ref.database})`);
  if (ref.deepcrawl) console.log(`  deepcrawl packages in ${ref.deepcrawl.packages.location}`);
  if (ref.auth) console.log(`authorization server ${ref.auth.issuer()}, account pages at ${ref.url}/account`);
  if (ref.paymentTestKey && !values["payment-test-key"])
    console.log(`  pay per request: no payment method configured; test method with key ${ref.paymentTestKey}`);
  await closeOn(stop, () => ref.close());
  return 0;
}
