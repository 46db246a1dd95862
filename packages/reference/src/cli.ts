// `plumbline reference`: the reference implementation's server, and the commands that administer its database
// (`keys`, `payments`, `index`) or run its authorization server alone (`auth-server`). Declarations only: the
// server, the database drivers and the engines load once the arguments are good.
import {
  Command,
  collect,
  decimal,
  exits,
  httpUrl,
  InvalidArgumentError,
  Option,
  type OptionValues,
  repeatable,
  wholeNumber,
} from "@plumbline-kit/cli/command-kit";
import {
  WRAPPED_ARGUMENT,
  WRAPPED_USAGE,
  wrappedArgumentHelp,
  wrappedCommand,
} from "@plumbline-kit/cli/wrapped-command";
import { CONTRACT_VERSIONS } from "@plumbline-kit/contract/contract-versions";
import { checkS3Endpoint, parsePackageStoreUrl } from "./deepcrawl/s3-package-store-options.ts";

// ---------------------------------------------------------------------------------------------------------------
// Options several commands share, each declared once

const dataDirOption = () =>
  new Option("--data-dir <dir>", "the SQLite database in DIR/plumbline.db, created at first use: zero set-up").default(
    "data",
  );
const databaseUrlOption = () =>
  new Option(
    "--database-url <url>",
    "a PostgreSQL database (postgres://USER:PASSWORD@HOST:PORT/DB) instead: several instances share accounts, credits, rate limits and the deepcrawl queue; the schema is created at start. Commands that administer the database need the same URL",
  )
    .argParser(postgresUrl)
    .conflicts("dataDir");

/** The database options of a command reading or writing the reference's database. */
function withDatabase<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd.optionsGroup("Database:").addOption(dataDirOption()).addOption(databaseUrlOption());
}

function postgresUrl(value: string): string {
  if (!/^postgres(ql)?:\/\/./.test(value))
    throw new InvalidArgumentError("Expected a postgres:// or postgresql:// URL.");
  return value;
}

const listenOptions = <A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  port: number,
) =>
  cmd
    .option("--host <address>", "the address to listen on", "127.0.0.1")
    .option("--port <port>", "the port to listen on (0: any free port)", wholeNumber(0, 65535), port);

const issuerOption = () =>
  new Option(
    "--issuer <url>",
    "the authorization server's public issuer URL when a proxy stands in front (default: the address it listens on); X-Forwarded-* headers are then trusted",
  ).argParser(httpUrl);
const startingCreditsOption = () =>
  new Option("--starting-credits <n>", "credits of an account created on the sign-up page (default 100)").argParser(
    wholeNumber(0),
  );
const cookieSecureOption = () =>
  new Option(
    "--cookie-secure <mode>",
    "Secure on the account pages' cookies: auto (when the browser is on https, or the issuer is https), always, never",
  )
    .choices(["auto", "always", "never"] as const)
    .default("auto" as const);

function parseKey(spec: string) {
  const [key, credits, type] = spec.split(":");
  const n = Number(credits);
  if (!key || !/^\d+$/.test(credits ?? "") || !Number.isSafeInteger(n) || (type && type !== "oauth"))
    throw new InvalidArgumentError("Expected KEY:CREDITS[:oauth] with a whole number of credits.");
  return { key, credits: n, credentialType: type === "oauth" ? ("oauth" as const) : ("api_key" as const) };
}

function s3Url(value: string) {
  try {
    return parsePackageStoreUrl(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function s3Endpoint(value: string) {
  try {
    return checkS3Endpoint(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function s3Region(value: string) {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(value)) throw new InvalidArgumentError("Expected a region name such as us-east-1.");
  return value;
}

function userAgent(value: string) {
  if (!/^[\x20-\x7e]{1,256}$/.test(value))
    throw new InvalidArgumentError("Expected 1..256 printable ASCII characters.");
  return value;
}

function resourceOrigin(value: string) {
  if (!/^https?:\/\/[^\s/]+\/?$/.test(value)) throw new InvalidArgumentError("Expected an http(s) origin.");
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// The server

function serverOptions(cmd: Command) {
  return withDatabase(listenOptions(cmd.optionsGroup("Server:"), 8080))
    .optionsGroup("Server:")
    .addOption(
      new Option(
        "--key <KEY:CREDITS[:oauth]>",
        "seed an account with this key and balance at start (repeatable; tests and demos)",
      ).argParser(repeatable(parseKey)),
    )
    .addOption(
      new Option(
        "--contract <version>",
        "the version of the contract served: seed (the interface specification) or live (the service's newer published document: POST /ask searched and scored on the reference's backends, POST /feedback kept in the database and listed on the account page; docs/contract-versions.md)",
      )
        .choices(CONTRACT_VERSIONS)
        .default("seed" as const),
    )
    .option(
      "--rate-limit <n>",
      "requests per minute per account (default: the document's 200; 0 turns limiting off)",
      wholeNumber(0),
    )
    .option("--mcp-url <url>", "{mcp_url}: the hosted MCP endpoint is {mcp_url}/mcp (default: the base URL)", httpUrl)
    .option("--site-url <url>", "{site_url} named by the discovery documents (default: the base URL)", httpUrl)
    .option(
      "--log",
      "log every request (pino, JSON lines; keys and OAuth codes in query strings written as [REDACTED])",
    )
    .optionsGroup("Fetching and engines:")
    .option(
      "--allow-private-network",
      "let targets on loopback and private addresses be fetched (test fixture sites); without it they are refused after DNS resolution and on every redirect",
    )
    .option(
      "--user-agent <ua>",
      'User-Agent of outbound requests; name your contact page, e.g. "examplebot/1.0 (+https://example.com/bot)" (default plumbline-reference/VERSION)',
      userAgent,
    )
    .addOption(
      new Option(
        "--chromium <path>",
        "Chromium for /screenshot and the crawl's browser fallback, e.g. /usr/bin/chromium (default: the headless shell the @sparticuz/chromium dependency ships)",
      ).env("PLUMBLINE_CHROMIUM"),
    )
    .option(
      "--browser-contexts <n>",
      "pages rendered at once (default 4); up to 2N more wait, further callers get 503",
      wholeNumber(1, 64),
    )
    .option(
      "--browser-spares <n>",
      "fresh contexts kept ready, their renderer started (default 2; 0 starts one per page: 200-800 ms more per screenshot, no idle renderer processes)",
      wholeNumber(0, 16),
    )
    .option(
      "--parse-threads <n>",
      "worker threads parsing pages, at most (default: the cores; each starts when a page finds none free; D-parse-limits)",
      wholeNumber(1, 64),
    )
    .addOption(
      new Option(
        "--sqlite-synchronous <mode>",
        "SQLite commit durability: normal (safe across a crash of the process; the last commits may be lost on a power loss) or full (every commit synced, slower); default normal",
      ).choices(["normal", "full"] as const),
    )
    .option(
      "--instance-lease-seconds <s>",
      "an instance (this server) that has not renewed its lease for S seconds is dead: the credits its calls held are released by the next instance on the database (default 30)",
      decimal(0.5, 3600),
    )
    .option(
      "--github-trending-url <url>",
      "where /trending reads GitHub's trending page (default https://github.com)",
      httpUrl,
    )
    .option(
      "--hackernews-trending-url <url>",
      "where /trending reads the Hacker News API (default https://hacker-news.firebaseio.com)",
      httpUrl,
    )
    .option(
      "--model-url <url>",
      "an OpenAI-compatible API base (…/v1) for /extract; its key is read from the environment, PLUMBLINE_MODEL_API_KEY, never from a flag. Without it /extract fills response_format from the page's structured data, tables, lists and text",
      httpUrl,
    )
    .option("--model <name>", "the model to ask (with --model-url)")
    .option(
      "--model-timeout <ms>",
      "the longest a model call may take, at least 1000 (default 60000)",
      wholeNumber(1000),
    )
    .optionsGroup("Search upstreams (docs/search-backends.md):")
    .option("--searxng-url <url>", "a SearXNG instance (JSON format enabled) for most search_service values", httpUrl)
    .option(
      "--wikipedia-url <url>",
      "MediaWiki API base for search_service wikipedia; {lang} takes the request's language (https://{lang}.wikipedia.org)",
      httpUrl,
    )
    .option("--arxiv-url <url>", "arXiv API base for search_service arxiv (https://export.arxiv.org)", httpUrl)
    .option(
      "--github-api-url <url>",
      "GitHub REST API base for search_service github (https://api.github.com); token from $PLUMBLINE_GITHUB_TOKEN",
      httpUrl,
    )
    .option(
      "--hackernews-url <url>",
      "Algolia HN API base for news search_service hackernews (https://hn.algolia.com)",
      httpUrl,
    )
    .option("--public-search-apis", "use the public endpoints above for the direct adapters not given explicitly")
    .option(
      "--upstream-timeout <ms>",
      "per upstream request, 1..120000 (default 10000); a search_service value with no upstream is answered by the local index of fetched pages (D-search-service-fallback)",
      wholeNumber(1, 120_000),
    )
    .optionsGroup("Deepcrawl and its packages (docs/reference.md):")
    .option(
      "--package-dir <dir>",
      "where deepcrawl packages are written (default DATA_DIR/packages); instances sharing a --database-url must share this directory too, or a bucket (--package-store)",
    )
    .addOption(
      new Option(
        "--package-store <url>",
        "s3://BUCKET[/PREFIX]: write deepcrawl packages to an S3-compatible bucket instead (streamed multipart uploads under PREFIX/), which every instance on the --database-url reads; checked at start. Credentials from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN) or the AWS SDK's profiles and roles, never from a flag",
      )
        .argParser(s3Url)
        .conflicts("packageDir"),
    )
    .option("--s3-endpoint <url>", "an S3-compatible service (MinIO, Ceph, R2, …) instead of AWS", s3Endpoint)
    .option("--s3-region <region>", "the bucket's region (default $AWS_REGION, else us-east-1)", s3Region)
    .option(
      "--s3-force-path-style",
      "address the bucket as ENDPOINT/BUCKET/KEY (MinIO and most self-hosted stores need it)",
    )
    .option("--deepcrawl-max-pages <n>", "pages one task may fetch (default 500)", decimal(1, 10_000_000))
    .option("--deepcrawl-max-mb <n>", "MB of documents one task may gather (default 100)", decimal(0.001, 1_000_000))
    .option(
      "--deepcrawl-max-seconds <s>",
      "seconds one task may run (default 900); a task that reaches a limit completes with what it fetched and names it in manifest.json",
      decimal(1, 86_400 * 7),
    )
    .option("--deepcrawl-concurrency <n>", "pages of one task fetched at once (default 4)", decimal(1, 64))
    .option(
      "--deepcrawl-delay-ms <ms>",
      "least time between two requests to one host (default 250; robots.txt may ask more)",
      decimal(0, 60_000),
    )
    .option(
      "--deepcrawl-lease-seconds <s>",
      "a task whose instance died is taken over after S seconds (default 30)",
      decimal(0.5, 3600),
    )
    .option("--zip-url-ttl <s>", "how long a signed zipUrl stays valid (default 3600)", decimal(1, 86_400 * 365))
    .optionsGroup("OAuth and accounts (docs/oauth-and-accounts.md):")
    .option(
      "--authorization-server <url>",
      "an OAuth authorization server running apart (`reference auth-server` on the same database) that the protected-resource metadata names instead of the mounted one",
      httpUrl,
    )
    .option("--no-auth-server", "mount no authorization server: authorization_servers is empty, no OAuth tokens")
    .addOption(issuerOption())
    .addOption(startingCreditsOption())
    .addOption(cookieSecureOption())
    .optionsGroup("Payments (docs/payments.md):")
    .option(
      "--payment-test-key <key>",
      "accept the local test payment method, credentials signed with KEY (D-payment-methods); with no payment method at all, a fresh test key is made and printed at start",
    )
    .option(
      "--payment-method <spec>",
      "accept a production method (repeatable): tempo:currency=0x…,recipient=0x…[,testnet] or stripe:network-id=ID[,payment-method-types=card+link][,decimals=2] with STRIPE_SECRET_KEY in the environment (both settle on networks: not exercised offline)",
      collect,
    );
}

export type ReferenceServerOptions = ReturnType<ReturnType<typeof serverOptions>["opts"]>;
export type AuthServerCommandOptions = ReturnType<ReturnType<typeof authServerOptions>["opts"]>;

// ---------------------------------------------------------------------------------------------------------------
// The administration commands

const KEY_ARGUMENT = "a whole key or its printed prefix (the first 12 characters)";

function keysCommand() {
  const keys = new Command("keys")
    .summary("create, list, rotate, revoke and credit API keys")
    .description(
      "Account and API key administration on the server's database (the same --data-dir or --database-url). KEY is a whole key or its printed prefix (the first 12 characters).",
    );
  const keysAction = async () => await import("./keys-command.ts");
  withDatabase(
    keys
      .command("create")
      .description("Create an account with an API key (printed once).")
      .option("--credits <n>", "the account's balance", wholeNumber(0), 0)
      .option("--oauth", "make the credential an OAuth token (usage reports credential_type oauth)"),
  ).action(exits(async (opts) => (await keysAction()).createKey(opts)));
  withDatabase(keys.command("list").description("List the keys: prefix, account, balance, type, state.")).action(
    exits(async (opts) => (await keysAction()).listKeys(opts)),
  );
  withDatabase(
    keys
      .command("rotate")
      .description("Revoke a key and issue its account a new one (printed once).")
      .argument("<key>", KEY_ARGUMENT),
  ).action(exits(async (key, opts) => (await keysAction()).rotateKey(key, opts)));
  withDatabase(keys.command("revoke").description("Revoke a key.").argument("<key>", KEY_ARGUMENT)).action(
    exits(async (key, opts) => (await keysAction()).revokeKey(key, opts)),
  );
  withDatabase(
    keys
      .command("credit")
      .description("Add credits to a key's account.")
      .argument("<key>", KEY_ARGUMENT)
      .argument("<credits>", "a whole number > 0", wholeNumber(1)),
  ).action(exits(async (key, credits, opts) => (await keysAction()).creditKey(key, credits, opts)));
  return keys;
}

function paymentsCommand() {
  const payments = new Command("payments")
    .summary("payments received with the Payment scheme")
    .description("The payments received with the Payment scheme (D-payment-charging).");
  withDatabase(
    payments
      .command("list")
      .description("List the payments received, newest first.")
      .option("--limit <n>", "at most N payments", wholeNumber(1))
      .option("--json", "print them as JSON"),
  ).action(
    exits(async (opts) => {
      const { listPayments } = await import("./payments-command.ts");
      return listPayments(opts);
    }),
  );
  return payments;
}

function feedbackCommand() {
  const feedback = new Command("feedback")
    .summary("the feedback reports accounts sent (live contract)")
    .description(
      "The reports POST /feedback kept (the live contract, D-feedback): every account's, for the operator. An account sees its own on its account page.",
    );
  withDatabase(
    feedback
      .command("list")
      .description("List the feedback reports, newest first.")
      .option("--limit <n>", "at most N reports", wholeNumber(1))
      .option("--account <id>", "only this account's reports (its id, acct_…)")
      .option("--json", "print them as JSON"),
  ).action(
    exits(async (opts) => {
      const { listFeedback } = await import("./feedback-command.ts");
      return listFeedback(opts);
    }),
  );
  return feedback;
}

function indexCommand() {
  const index = new Command("index")
    .summary("fill the search index from sites' sitemaps; count its pages")
    .description(
      "The search index (the local backend of POST /search and /news) on the server's database: /crawl, crawl_results and deepcrawl add the pages they fetch; `add` fills it from sites.",
    );
  withDatabase(
    index
      .command("add")
      .description(
        "Fill the index from each site's sitemap (else its links): every page is fetched (static text, no browser) and indexed. Exit 1 when a site cannot be read.",
      )
      .argument("<url...>", "the sites (http or https)")
      .option("--limit <n>", "pages per site at most", wholeNumber(1), 500)
      .option("--allow-private-network", "let sites on loopback and private addresses be fetched")
      .option("--user-agent <ua>", "User-Agent of the requests", userAgent),
  ).action(
    exits(async (urls, opts) => {
      for (const u of urls) if (!/^https?:\/\/[^\s/]+/.test(u)) throw new Error(`not an http(s) URL: ${u}`);
      const { indexSitesCommand } = await import("./search/index-command.ts");
      return indexSitesCommand(urls, opts);
    }),
  );
  withDatabase(index.command("count").description("Print how many pages the index holds.")).action(
    exits(async (opts) => {
      const { indexCountCommand } = await import("./search/index-command.ts");
      return indexCountCommand(opts);
    }),
  );
  return index;
}

function authServerOptions(cmd: Command) {
  return withDatabase(
    listenOptions(cmd.optionsGroup("Server:"), 8081).option(
      "--log",
      "log every request (pino, JSON lines; keys and OAuth codes in query strings written as [REDACTED])",
    ),
  )
    .optionsGroup("OAuth and accounts:")
    .addOption(issuerOption())
    .addOption(startingCreditsOption())
    .addOption(cookieSecureOption())
    .addOption(
      new Option(
        "--resource-origin <url>",
        "the API's origin, and its MCP endpoint's when apart (repeatable): tokens are issued for RFC 8707 resources there, beside the server's own origin",
      ).argParser(repeatable(resourceOrigin)),
    );
}

function authServerCommand() {
  return authServerOptions(
    new Command("auth-server")
      .summary("the authorization server and account pages alone")
      .description(
        "The OAuth authorization server and the account pages alone (/oauth/…, /account, RFC 8414 metadata), until SIGINT or SIGTERM. The API recognises its tokens when both use the same database; start the API with --authorization-server naming this one.",
      ),
  ).action(
    exits(async (opts) => {
      const { serveAuthServer } = await import("./serve.ts");
      return serveAuthServer(opts);
    }),
  );
}

export function referenceCommand() {
  const reference = serverOptions(
    new Command("reference").description(
      "Run the reference implementation: every operation of the contract on the platform the mock shares (auth, credits, batches, rate limits, discovery, /mcp, the Payment scheme), over SQLite or PostgreSQL, with real engines, the OAuth authorization server and the account pages (docs/reference.md). Runs until SIGINT or SIGTERM.",
    ),
  )
    .argument(WRAPPED_ARGUMENT, wrappedArgumentHelp("reference"))
    .usage(`${WRAPPED_USAGE}\n       plumbline reference [command]`)
    .addHelpText(
      "after",
      `
Process: the server runs in a child Node started with --single-threaded-gc (V8 reads it only at start; it
halves the collectors' CPU per crawl), the command staying as a thin parent: signals are passed on (Ctrl-Z and
fg too), the exit code or signal is the server's, and the server closes when the parent ends, kill -9 included;
a SIGTERM or SIGINT repeated while it closes is ignored. One process instead: PLUMBLINE_RELAUNCH=0, or Node
started with --single-threaded-gc or an --inspect flag (on its command line or in NODE_OPTIONS).

With -- CMD …: runs CMD once the server listens, then closes it and exits with CMD's status. CMD finds
PLUMBLINE_URL, PLUMBLINE_API_KEY, SEARCH1API_API_KEY and SEARCH1API_KEY (the first --key with credits),
PLUMBLINE_BROKE_API_KEY (the first --key with 0 credits) and PLUMBLINE_PAYMENT_KEY (the test payment key) in
its environment; signals are passed to it and nothing it started is left running (docs/reference.md).`,
    )
    .action(
      exits(async (operands, opts, cmd) => {
        const command = wrappedCommand(cmd, operands);
        const { serveReference } = await import("./serve.ts");
        return serveReference(opts, command);
      }),
    );
  reference.addCommand(keysCommand());
  reference.addCommand(paymentsCommand());
  reference.addCommand(feedbackCommand());
  reference.addCommand(indexCommand());
  reference.addCommand(authServerCommand());
  return reference;
}
