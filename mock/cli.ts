// `plumbline mock`: the stateful mock on a port, until SIGINT/SIGTERM.
import { parseArgs } from "node:util";
import { DEMO_KEY, DEMO_PAYMENT_KEY } from "./demo-keys.ts";
import type { MockAccountInput } from "./memory-accounts.ts";
import type { ReplayReport } from "./replay/replay.ts";

export const MOCK_HELP = `Usage: plumbline mock [--host 127.0.0.1] [--port 4010] [--key KEY:CREDITS ...] [--seed N]
                      [--clock real|manual] [--variability normal|max] [--profile primary|alt-bounds] [--spec FILE]
                      [--rate-limit N] [--deepcrawl-steps QUEUED_MS,WAITING_MS,PROCESSING_MS]
                      [--allow-private-network] [--mcp-url URL] [--site-url URL]
                      [--payment-test-key KEY] [--payment-method SPEC ...] [--log]
                      [--replay FILE.har ...] [--replay-match exact|ignore-body|path] [--replay-invalid]

  --key KEY:CREDITS   create an account with this API key and balance (repeatable); with none, the demo key
                      ${DEMO_KEY} with 1000 credits is created and printed. KEY:CREDITS:oauth makes the
                      credential an OAuth token (usage reports credential_type oauth)
  --spec FILE         serve another version of the contract (YAML or JSON, OpenAPI 3.1), e.g. the one a client pins:
                      its bounds, enums, prices and limits; an operation the mock has no engine for is answered
                      from the document (its first 2xx example, Prefer: example=NAME, or a value generated from
                      the schema), validated, priced and charged like the others (docs/spec-diff.md)
  --seed N            seed of the generated data (default 1): the same seed and request give the same answer
  --clock manual      time moves only through POST /__mock/clock/advance (deepcrawl states, rate windows)
  --variability max   exercise everything the contract allows on every request (nulls, absent optionals, extra
                      properties, empty arrays, failed batch entries, failed deepcrawl tasks)
  --rate-limit N      requests per minute per account (default: the document's 200; 0 turns limiting off)
  --deepcrawl-steps   durations of the queued, waiting and processing states (default 1000,1000,3000)
  --allow-private-network
                      serve targets on loopback and private hosts (127.0.0.1, localhost, 10/8, …) instead of
                      refusing them (D-target-refusal: 403 on screenshot, 400 elsewhere); for tests that hand the
                      mock their own localhost URLs. Cloud metadata and link-local hosts stay refused
  --mcp-url URL       {mcp_url}: the MCP endpoint is {mcp_url}/mcp (default: the mock's own URL)
  --site-url URL      {site_url} named by the discovery documents (default: the mock's own URL)
  --payment-test-key KEY
                      the key test-method Payment credentials are signed with (default ${DEMO_PAYMENT_KEY});
                      clients pay with createPayingFetch({ method: "test", key }) (D-payment-methods)
  --payment-method SPEC
                      offer a production method too: tempo:currency=0x…,recipient=0x…[,testnet] or
                      stripe:network-id=ID[,payment-method-types=card+link] (STRIPE_SECRET_KEY from the environment)
  --log               log every request (pino, JSON lines)
  --replay FILE.har   answer requests that match a recorded one with the recorded answer (repeatable: files are
                      merged in order). The mock stays stateful: authentication, rate limits, validation (400/422)
                      and credits (the contract's price) come first; recorded 401/402/429 are left to its own state;
                      everything unmatched gets the mock's own answer. Identical requests get their recorded answers
                      in order, then the last again. Every recorded answer is checked against the spec at start;
                      violations are printed to stderr and not served. docs/record-replay.md
  --replay-match M    exact (default): method, path, query and JSON body (key order and spacing ignored);
                      ignore-body: method, path and query; path: method and path
  --replay-invalid    serve recorded answers that violate the spec too (still printed at start)

Steering from tests: the Prefer header (code=, example=, dynamic=, seed=, latency=, fault=reset|hang,
variability=max, fail-entries="1,3", deepcrawl=failed, payment=refused|expired|replayed) and the admin API under /__mock (see mock/README.md).`;

function parseKey(spec: string): MockAccountInput {
  const [key, credits, type] = spec.split(":");
  const n = Number(credits);
  if (!key || !Number.isSafeInteger(n) || n < 0 || (type && type !== "oauth" && type !== "api_key")) {
    throw new Error(`--key takes KEY:CREDITS[:oauth] with a whole number of credits, not "${spec}"`);
  }
  return { key, credits: n, credentialType: (type as "oauth" | "api_key" | undefined) ?? "api_key" };
}

function intOption(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${name} takes a whole number >= ${min}, not "${value}"`);
  return n;
}

/** What loading the recordings found: a summary on stdout, every answer that violates the spec on stderr. */
function printReplay(r: ReplayReport) {
  const skipped = new Map<string, number>();
  for (const s of r.skipped) skipped.set(s.reason, (skipped.get(s.reason) ?? 0) + 1);
  const why = [...skipped].map(([reason, n]) => `${n} ${reason}`).join(", ");
  console.log(
    `  replaying ${r.answers} recorded answers of ${r.entries} entries (match ${r.match}) from ${r.files.join(", ")}` +
      (why ? `; skipped: ${why}` : "") +
      `; GET /__mock/replay lists them`,
  );
  for (const v of r.invalid) {
    const errors = v.errors.slice(0, 3).map((e) => e.message);
    if (v.errors.length > 3) errors.push(`and ${v.errors.length - 3} more`);
    console.error(
      `replay: ${v.file} entry ${v.entry}: ${v.method} ${v.path} ${v.status} violates the spec, ` +
        `${v.served ? "served anyway (--replay-invalid)" : "not served (--replay-invalid serves it)"}: ${errors.join("; ")}`,
    );
  }
}

export async function mockCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "4010" },
      key: { type: "string", multiple: true },
      seed: { type: "string" },
      clock: { type: "string", default: "real" },
      variability: { type: "string", default: "normal" },
      profile: { type: "string", default: "primary" },
      spec: { type: "string" },
      "rate-limit": { type: "string" },
      "deepcrawl-steps": { type: "string" },
      "allow-private-network": { type: "boolean", default: false },
      "mcp-url": { type: "string" },
      "site-url": { type: "string" },
      "payment-test-key": { type: "string" },
      "payment-method": { type: "string", multiple: true },
      log: { type: "boolean", default: false },
      replay: { type: "string", multiple: true },
      "replay-match": { type: "string", default: "exact" },
      "replay-invalid": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(MOCK_HELP);
    return 0;
  }
  if (values.clock !== "real" && values.clock !== "manual") throw new Error(`--clock takes real or manual`);
  if (values.variability !== "normal" && values.variability !== "max")
    throw new Error(`--variability takes normal or max`);
  const steps = values["deepcrawl-steps"]?.split(",").map((v) => intOption("deepcrawl-steps", v) as number);
  if (steps && steps.length !== 3)
    throw new Error("--deepcrawl-steps takes three durations: QUEUED_MS,WAITING_MS,PROCESSING_MS");
  const perAccount = intOption("rate-limit", values["rate-limit"]);
  const replayMatch = values["replay-match"];
  if (replayMatch !== "exact" && replayMatch !== "ignore-body" && replayMatch !== "path")
    throw new Error("--replay-match takes exact, ignore-body or path");
  if (!values.replay && (values["replay-invalid"] || replayMatch !== "exact"))
    throw new Error("--replay-match and --replay-invalid go with --replay FILE");
  for (const flag of ["mcp-url", "site-url"] as const)
    if (values[flag] !== undefined && !/^https?:\/\/[^\s/]+/.test(values[flag] as string))
      throw new Error(`--${flag} takes an http(s) URL`);

  // loaded once the arguments are good: bad ones answer without loading the server
  const { startMock } = await import("./start-mock.ts");
  const mock = await startMock({
    host: values.host,
    port: intOption("port", values.port),
    keys: (values.key ?? []).map(parseKey),
    seed: intOption("seed", values.seed),
    clock: values.clock,
    variability: values.variability,
    profile: values.profile,
    spec: values.spec,
    rateLimits: perAccount === undefined ? undefined : { perAccount },
    deepcrawlSteps: steps ? { queuedMs: steps[0], waitingMs: steps[1], processingMs: steps[2] } : undefined,
    allowPrivateNetwork: values["allow-private-network"],
    mcpUrl: values["mcp-url"],
    siteUrl: values["site-url"],
    paymentTestKey: values["payment-test-key"],
    paymentMethods: values["payment-method"]
      ? (await import("../reference/platform/payment-methods.ts")).paymentMethodsFromFlags(
          undefined,
          values["payment-method"],
          process.env,
        )
      : undefined,
    logger: values.log,
    replay: values.replay,
    replayMatch,
    replayInvalid: values["replay-invalid"],
  });
  console.log(`plumbline mock listening on ${mock.url}`);
  for (const k of mock.keys) console.log(`  key ${k.key}: ${k.credits} credits (${k.credentialType ?? "api_key"})`);
  console.log(`  pay per request: test method, key ${values["payment-test-key"] ?? DEMO_PAYMENT_KEY}`);
  if (mock.replay) printReplay(mock.replay);
  console.log(`  docs ${mock.url}/docs, admin ${mock.url}/__mock, clock ${values.clock}, seed ${values.seed ?? 1}`);

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal}: closing`);
      mock.close().then(resolve, resolve);
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });
  return 0;
}
