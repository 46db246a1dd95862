// `plumbline mock`: the stateful mock on a port, until SIGINT/SIGTERM. Declarations only: the server is loaded once
// the arguments are good.
import {
  Command,
  collect,
  commaList,
  exits,
  httpUrl,
  InvalidArgumentError,
  Option,
  repeatable,
  usageError,
  wholeNumber,
} from "@plumbline-kit/cli/command-kit";
import {
  WRAPPED_ARGUMENT,
  WRAPPED_USAGE,
  wrappedArgumentHelp,
  wrappedCommand,
} from "@plumbline-kit/cli/wrapped-command";
import type { Contract } from "@plumbline-kit/contract/contract";
import { CONTRACT_VERSIONS } from "@plumbline-kit/contract/contract-versions";
import { PROFILE_NAMES } from "@plumbline-kit/contract/profiles";
import { plural } from "@plumbline-kit/contract/report/plural";
import { DEMO_KEY, DEMO_PAYMENT_KEY } from "./demo-keys.ts";
import type { MockAccountInput } from "./memory-accounts.ts";
import type { ReplayMatch, ReplayReport } from "./replay/replay.ts";

const REPLAY_MATCHES = ["exact", "ignore-body", "path"] as const satisfies readonly ReplayMatch[];
const LOG_FORMATS = ["pretty", "json", "off"] as const;

/** `--log` as given, or its default: the readable log on a terminal, none when the output goes elsewhere. */
export function logFormat(given: string | boolean | undefined, tty: boolean): (typeof LOG_FORMATS)[number] {
  if (given === true) return "pretty";
  if (typeof given === "string") return given as (typeof LOG_FORMATS)[number];
  return tty ? "pretty" : "off";
}

/** What loading the recordings found: a summary on stdout, every answer that violates the spec on stderr. */
function printReplay(r: ReplayReport) {
  const skipped = new Map<string, number>();
  for (const s of r.skipped) skipped.set(s.reason, (skipped.get(s.reason) ?? 0) + 1);
  const why = [...skipped].map(([reason, n]) => `${n} ${reason}`).join(", ");
  console.log(
    `  replaying ${r.answers} recorded answers of ${plural(r.entries, "entry", "entries")} (match ${r.match}) from ${r.files.join(", ")}` +
      (why ? `; skipped: ${why}` : "") +
      "; GET /__mock/replay lists them",
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

/** The routes the server answers, as Prism lists them at start: one line per operation of the document. */
export function routeLines(contract: Contract, url: string): string[] {
  const ops = contract.operations;
  const width = Math.max(...ops.map((op) => op.method.length));
  const price = (op: Contract["operations"][number]) =>
    op.pricing
      ? ` (${plural(op.pricing.credits, "credit")}${op.batchMax ? " an entry" : ""})`
      : op.discovery
        ? ""
        : " (free)";
  return [
    `  routes: the contract's ${plural(contract.contractOperations.length, "operation")} and ${ops.length - contract.contractOperations.length} discovery documents, and /docs, /mcp, /__mock:`,
    ...ops.map((op) => `    ${op.method.toUpperCase().padEnd(width)} ${url}${op.path}${price(op)}`),
  ];
}

function parseKey(spec: string): MockAccountInput {
  const [key, credits, type] = spec.split(":");
  const n = Number(credits);
  if (
    !key ||
    !/^\d+$/.test(credits ?? "") ||
    !Number.isSafeInteger(n) ||
    (type && type !== "oauth" && type !== "api_key")
  )
    throw new InvalidArgumentError("Expected KEY:CREDITS[:oauth] with a whole number of credits.");
  return { key, credits: n, credentialType: (type as "oauth" | "api_key" | undefined) ?? "api_key" };
}

function parseSteps(value: string): { queuedMs: number; waitingMs: number; processingMs: number } {
  const steps = value.split(",").map((v) => Number(v));
  if (steps.length !== 3 || !steps.every((n) => Number.isSafeInteger(n) && n >= 0))
    throw new InvalidArgumentError("Expected three whole durations in ms: QUEUED_MS,WAITING_MS,PROCESSING_MS.");
  return { queuedMs: steps[0], waitingMs: steps[1], processingMs: steps[2] };
}

export function mockCommand() {
  return new Command("mock")
    .description(
      "The stateful mock of the API: validation, accounts and credits, batches, deepcrawl states on a real or manual clock, rate limits, the Payment scheme, OAuth, /mcp and the discovery documents, steered by the Prefer header and the admin API under /__mock (docs/mock.md).",
    )
    .argument(WRAPPED_ARGUMENT, wrappedArgumentHelp("mock"))
    .usage(WRAPPED_USAGE)
    .option("--host <address>", "the address to listen on", "127.0.0.1")
    .option("--port <port>", "the port to listen on (0: any free port)", wholeNumber(0, 65535), 4010)
    .addOption(
      new Option(
        "--key <KEY:CREDITS[:oauth]>",
        `an account with this API key and balance (repeatable); :oauth makes the credential an OAuth token (usage reports credential_type oauth). With none, the demo key ${DEMO_KEY} with 1000 credits is created and printed`,
      ).argParser(repeatable(parseKey)),
    )
    .option(
      "--seed <n>",
      "seed of the generated data: the same seed and request give the same answer",
      wholeNumber(0),
      1,
    )
    .addOption(
      new Option(
        "--clock <mode>",
        "real, or manual: time moves only through POST /__mock/clock/advance (deepcrawl states, rate windows)",
      )
        .choices(["real", "manual"] as const)
        .default("real" as const),
    )
    .addOption(
      new Option(
        "--variability <mode>",
        "max: exercise everything the contract allows on every request (nulls, absent optionals, extra properties, empty arrays, failed batch entries, failed deepcrawl tasks)",
      )
        .choices(["normal", "max"] as const)
        .default("normal" as const),
    )
    .addOption(
      new Option(
        "--profile <name>",
        "the bound set requests are validated with: primary (the document's) or alt-bounds (the interface's second set for search, D-bound-sets)",
      )
        .choices(PROFILE_NAMES)
        .default("primary" as const),
    )
    .addOption(
      new Option(
        "--contract <version>",
        "the version of the contract served: seed (the interface specification) or live (the service's newer published document: POST /ask and POST /feedback answered, docs/contract-versions.md)",
      )
        .choices(CONTRACT_VERSIONS)
        .default("seed" as const)
        .conflicts("spec"),
    )
    .option(
      "--spec <file>",
      "serve another version of the contract (YAML or JSON, OpenAPI 3.1), e.g. the one a client pins: its bounds, enums, prices and limits; an operation the mock has no engine for is answered from the document (its first 2xx example, Prefer: example=NAME, or a value generated from the schema), validated, priced and charged like the others (docs/spec-diff.md)",
    )
    .option(
      "--rate-limit <n>",
      "requests per minute per account (default: the document's 200; 0 turns limiting off)",
      wholeNumber(0),
    )
    .option(
      "--deepcrawl-steps <ms,ms,ms>",
      "durations of a deepcrawl task's queued, waiting and processing states (default 1000,1000,3000)",
      parseSteps,
    )
    .option(
      "--deepcrawl-retention <s>",
      "seconds a finished deepcrawl task and its zip are kept, on the mock's clock (manual or real); then its status answers 404 as for an unknown task",
      wholeNumber(1),
      86_400,
    )
    .option(
      "--deepcrawl-max-tasks <n>",
      "finished deepcrawl tasks kept at most: past it the oldest finished go first (a running task is never dropped)",
      wholeNumber(1),
      1000,
    )
    .option(
      "--journal-size <n>",
      "requests the journal (GET /__mock/journal) keeps, the newest; GET /__mock/stats shows every store's count and bound",
      wholeNumber(1),
      10_000,
    )
    .option(
      "--cache-size <n>",
      "answers of the deterministic engines (search, news, sitemap, trending, extract) kept for reuse, least recently used dropped first, 64 MiB at most (0: none)",
      wholeNumber(0),
      2000,
    )
    .option(
      "--allow-private-network",
      "serve targets on loopback and private hosts (127.0.0.1, localhost, 10/8, …) instead of refusing them (D-target-refusal: 403 on screenshot, 400 elsewhere), for tests that hand the mock their own URLs; cloud metadata and link-local hosts stay refused",
    )
    .option("--mcp-url <url>", "{mcp_url}: the MCP endpoint is {mcp_url}/mcp (default: the mock's own URL)", httpUrl)
    .option("--site-url <url>", "{site_url} named by the discovery documents (default: the mock's own URL)", httpUrl)
    .option(
      "--payment-test-key <key>",
      `the key test-method Payment credentials are signed with (default ${DEMO_PAYMENT_KEY}); clients pay with createPayingFetch({ method: "test", key }) (D-payment-methods)`,
    )
    .option(
      "--payment-method <spec>",
      "offer a production method too (repeatable): tempo:currency=0x…,recipient=0x…[,testnet] or stripe:network-id=ID[,payment-method-types=card+link] (STRIPE_SECRET_KEY from the environment)",
      collect,
    )
    .option(
      "--allowed-hosts <hosts>",
      "host names the mock serves beside IP addresses, localhost, *.localhost and --host (comma-separated; .example.com serves its subdomains too; all: any); a request for another Host name, or a call of /__mock from a page of another origin, is refused 403 (DNS rebinding, cross-site resets; docs/mock.md)",
      (v: string, prev: string[] | undefined) => [...(prev ?? []), ...commaList(v)],
    )
    .addOption(
      new Option(
        "--log [format]",
        "log every request: pretty (the default on a terminal; --log alone too): one line per request with its method, path, status, time, credits and the contract's verdict; json: pino's JSON lines; off (the default elsewhere). Keys and OAuth codes in query strings are written as [REDACTED]",
      )
        .choices(LOG_FORMATS)
        .preset("pretty"),
    )
    .option(
      "--replay <file.har>",
      "answer requests that match a recorded one with the recorded answer (repeatable: files are merged in order). The mock stays stateful: authentication, rate limits, validation (400/422) and credits (the contract's price) come first; recorded 401/402/429 are left to its own state; everything unmatched gets the mock's own answer. Identical requests get their recorded answers in order, then the last again. Every recorded answer is checked against the spec at start; violations are printed to stderr and not served (docs/record-replay.md)",
      collect,
    )
    .addOption(
      new Option(
        "--replay-match <how>",
        "exact: method, path, query and JSON body (key order and spacing ignored); ignore-body: method, path and query; path: method and path",
      )
        .choices(REPLAY_MATCHES)
        .default("exact" as const),
    )
    .option("--replay-invalid", "serve recorded answers that violate the spec too (still printed at start)")
    .addHelpText(
      "after",
      `
Steering from tests: the Prefer header (code=, example=, dynamic=, seed=, latency=, fault=reset|hang,
variability=max, fail-entries="1,3", deepcrawl=failed, payment=refused|expired|replayed) and the admin API
under /__mock (docs/mock.md). Runs until SIGINT or SIGTERM.

With -- CMD …: runs CMD once the mock listens, then closes the mock and exits with CMD's status. CMD finds
PLUMBLINE_URL (the mock's address), PLUMBLINE_API_KEY, SEARCH1API_API_KEY and SEARCH1API_KEY (the first --key
with credits, else the demo key), PLUMBLINE_BROKE_API_KEY (the first --key with 0 credits) and
PLUMBLINE_PAYMENT_KEY in its environment; SIGINT, SIGTERM and SIGHUP are passed to it, and nothing it started
is left running (docs/mock.md#the-mock-for-one-command).`,
    )
    .action(
      exits(async (operands, opts, cmd) => {
        const command = wrappedCommand(cmd, operands);
        if (!opts.replay && (opts.replayInvalid || cmd.getOptionValueSource("replayMatch") === "cli"))
          usageError(cmd, "--replay-match and --replay-invalid go with --replay FILE");
        if (opts.spec) {
          // the document is read before anything starts: a wrong path is one line naming the flag, exit 2
          const { readRawDocument } = await import("@plumbline-kit/contract/document");
          try {
            readRawDocument(opts.spec);
          } catch (err) {
            throw new Error(
              `--spec ${(err as Error).message}; give the path of an OpenAPI 3.1 document (YAML or JSON)`,
            );
          }
        }
        const { startMock } = await import("./start-mock.ts");
        const log = logFormat(opts.log, process.stdout.isTTY === true);
        const { prettyLine } = await import("./request-log.ts");
        const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
        const paymentMethods = opts.paymentMethod
          ? (await import("@plumbline-kit/platform/payment-methods")).paymentMethodsFromFlags(
              undefined,
              opts.paymentMethod,
              process.env,
            )
          : undefined;
        const mock = await startMock({
          host: opts.host,
          port: opts.port,
          keys: opts.key ?? [],
          seed: opts.seed,
          clock: opts.clock,
          variability: opts.variability,
          profile: opts.profile,
          spec: opts.spec,
          contractVersion: opts.contract,
          rateLimits: opts.rateLimit === undefined ? undefined : { perAccount: opts.rateLimit },
          deepcrawlSteps: opts.deepcrawlSteps,
          deepcrawlRetentionSeconds: opts.deepcrawlRetention,
          deepcrawlMaxTasks: opts.deepcrawlMaxTasks,
          journalSize: opts.journalSize,
          cacheSize: opts.cacheSize,
          allowPrivateNetwork: opts.allowPrivateNetwork ?? false,
          mcpUrl: opts.mcpUrl,
          siteUrl: opts.siteUrl,
          paymentTestKey: opts.paymentTestKey,
          paymentMethods,
          logger: log === "json",
          requestLog: log === "pretty" ? (e) => console.log(prettyLine(e, color)) : undefined,
          allowedHosts: opts.allowedHosts?.includes("all") ? "all" : opts.allowedHosts,
          replay: opts.replay,
          replayMatch: opts.replayMatch,
          replayInvalid: opts.replayInvalid ?? false,
        });
        console.log(`plumbline mock listening on ${mock.url}`);
        for (const k of mock.keys)
          console.log(`  key ${k.key}: ${plural(k.credits, "credit")} (${k.credentialType ?? "api_key"})`);
        console.log(`  pay per request: test method, key ${opts.paymentTestKey ?? DEMO_PAYMENT_KEY}`);
        if (mock.replay) printReplay(mock.replay);
        console.log(`  docs ${mock.url}/docs, admin ${mock.url}/__mock, clock ${opts.clock}, seed ${opts.seed}`);
        console.log(routeLines(mock.contract, mock.url).join("\n"));
        if (log !== "off") console.log(`  log: ${log === "json" ? "JSON lines (pino)" : "one line per request"}`);
        if (command) {
          const { pickKeys, runWrapped, serverEnv } = await import("@plumbline-kit/cli/wrapped-command");
          const env = serverEnv({
            url: mock.url,
            ...pickKeys(mock.keys),
            paymentKey: opts.paymentTestKey ?? DEMO_PAYMENT_KEY,
          });
          const code = await runWrapped(command, env, "mock");
          await mock.close();
          return code;
        }
        await new Promise<void>((resolve) => {
          const stop = (signal: string) => {
            console.log(`${signal}: closing`);
            mock.close().then(resolve, resolve);
          };
          process.once("SIGINT", () => stop("SIGINT"));
          process.once("SIGTERM", () => stop("SIGTERM"));
        });
        return 0;
      }),
    );
}
