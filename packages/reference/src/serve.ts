// The actions of `plumbline reference` and `plumbline reference auth-server` (declared in reference/cli.ts): start
// the server from the parsed options, say where it listens, and close it on SIGINT, SIGTERM or the end of the
// parent Node that started it (bin/relaunch.js).
import { randomFill } from "node:crypto";
import { parentEnded } from "@plumbline-kit/cli/relaunch";
import { paymentMethodsFromFlags } from "@plumbline-kit/platform/payment-methods";
import type { AuthServerCommandOptions, ReferenceServerOptions } from "./cli.ts";
import { deepcrawlOptions } from "./deepcrawl/deepcrawl-flags.ts";
import { parseSearchUpstreams } from "./search/upstream-flags.ts";

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

export async function serveAuthServer(o: AuthServerCommandOptions): Promise<number> {
  const { startAuthServer } = await import("./auth/start-auth-server.ts");
  const server = await startAuthServer({
    resourceOrigins: o.resourceOrigin ?? [],
    host: o.host,
    port: o.port,
    dataDir: o.dataDir,
    databaseUrl: o.databaseUrl,
    logger: o.log ?? false,
    issuer: o.issuer,
    startingCredits: o.startingCredits,
    cookieSecure: o.cookieSecure,
  });
  const stop = stopRequested();
  console.log(`plumbline auth server listening on ${server.url} (issuer ${server.issuer}; ${server.database})`);
  await closeOn(stop, () => server.close());
  return 0;
}

/** The server until a stop is requested, or, with `command` (after --), for as long as that command runs. */
export async function serveReference(o: ReferenceServerOptions, command?: string[]): Promise<number> {
  if (o.modelUrl && !o.model) throw new Error("--model-url needs --model NAME");
  const payment = paymentMethodsFromFlags(o.paymentTestKey, o.paymentMethod, process.env);
  const { startReference } = await import("./start-reference.ts");
  const ref = await startReference({
    host: o.host,
    port: o.port,
    contractVersion: o.contract,
    dataDir: o.dataDir,
    databaseUrl: o.databaseUrl,
    sqliteSynchronous: o.sqliteSynchronous,
    instanceLeaseSeconds: o.instanceLeaseSeconds,
    keys: o.key ?? [],
    allowPrivateNetwork: o.allowPrivateNetwork ?? false,
    chromiumPath: o.chromium,
    browserContexts: o.browserContexts,
    browserQueue: o.browserContexts === undefined ? undefined : 2 * o.browserContexts,
    browserSpares: o.browserSpares,
    userAgent: o.userAgent,
    authorizationServer: o.authorizationServer,
    authServer: o.authServer,
    issuer: o.issuer,
    startingCredits: o.startingCredits,
    cookieSecure: o.cookieSecure,
    mcpUrl: o.mcpUrl,
    siteUrl: o.siteUrl,
    rateLimits: o.rateLimit === undefined ? undefined : { perAccount: o.rateLimit },
    trending: { githubUrl: o.githubTrendingUrl, hackernewsUrl: o.hackernewsTrendingUrl },
    extractModel: o.modelUrl
      ? {
          url: o.modelUrl,
          model: o.model as string,
          apiKey: process.env.PLUMBLINE_MODEL_API_KEY,
          timeoutMs: o.modelTimeout,
        }
      : undefined,
    parsing: o.parseThreads === undefined ? undefined : { threads: o.parseThreads },
    logger: o.log ?? false,
    paymentTestKey: o.paymentTestKey,
    paymentMethods: payment.filter((m) => m.method !== "test"),
    ...deepcrawlOptions(o),
    searchUpstreams: parseSearchUpstreams(o),
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
  if (o.contract !== "seed") console.log(`  contract ${o.contract}: POST /ask and POST /feedback answered`);
  if (ref.deepcrawl) console.log(`  deepcrawl packages in ${ref.deepcrawl.packages.location}`);
  if (ref.auth) console.log(`authorization server ${ref.auth.issuer()}, account pages at ${ref.url}/account`);
  if (ref.paymentTestKey && !o.paymentTestKey)
    console.log(`  pay per request: no payment method configured; test method with key ${ref.paymentTestKey}`);
  if (command) {
    const { pickKeys, runWrapped, serverEnv } = await import("@plumbline-kit/cli/wrapped-command");
    const env = serverEnv({ url: ref.url, ...pickKeys(o.key ?? []), paymentKey: ref.paymentTestKey ?? undefined });
    // the parent Node gone (bin/relaunch.js): the command is stopped as by a SIGTERM, which is passed on to it
    parentEnded().then(() => process.kill(process.pid, "SIGTERM"));
    const code = await runWrapped(command, env, "reference");
    await ref.close().catch(() => {});
    if (process.connected) process.disconnect();
    return code;
  }
  await closeOn(stop, () => ref.close());
  return 0;
}
