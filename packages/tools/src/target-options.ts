// The options the clients of a target share (conform, fuzz, load, gate): one name and one parser per concept, so
// `--operations`, `--rate-limit` or `--fixture-url` mean the same on every command. Each command words the
// description for what it does with the value.

import { commaList, commaListOf, InvalidArgumentError, Option, wholeNumber } from "@plumbline-kit/cli/command-kit";
import { CONTRACT_VERSIONS } from "@plumbline-kit/contract/contract-versions";
import { parseRateLimitOption } from "@plumbline-kit/contract/rate-limit-headers";
import { REPORTERS } from "@plumbline-kit/contract/report/github";
import { PRECONDITION_KINDS } from "./conformance/skip-reasons.ts";

export const targetOption = (what = "base URL of the implementation to judge") =>
  new Option("--target <url>", what).makeOptionMandatory();

export const apiKeyOption = (what = "a funded account of the target") =>
  new Option("--api-key <key>", what).env("PLUMBLINE_API_KEY").makeOptionMandatory();

export const brokeApiKeyOption = () =>
  new Option(
    "--broke-api-key <key>",
    "an account with zero credits, for the 402 checks (skipped without it: the broke-key precondition)",
  ).env("PLUMBLINE_BROKE_API_KEY");

/** operationIds of the document; every client calls the operations it judges this. */
export const operationsOption = (what: string) =>
  new Option("--operations <ids>", `comma-separated operationIds (e.g. crawl,sitemap): ${what}`).argParser(commaList);

export const fixtureUrlOption = (what: string) => new Option("--fixture-url <url>", what);

export const fixtureManifestOption = () =>
  new Option(
    "--fixture-manifest <file>",
    "the fixture site's manifest (canary tokens, origins): DIR/manifest.json of `plumbline conform fixtures export DIR --base-url URL` for a hosted export, or `plumbline conform serve-fixtures --manifest FILE`; keep it from the target",
  );

export const fixtureLogOption = () =>
  new Option(
    "--fixture-log <file>",
    "the fixture host's request log (one URL or Common Log Format line per request; serve-fixtures --log FILE), for sitemap-no-page-content on a site the run does not serve",
  );

export const allowSkippedOption = (what: string) =>
  new Option(
    "--allow-skipped <kinds>",
    `comma-separated kinds of missing precondition whose skipped checks do not fail ${what}: fixture-unreachable (the target cannot read the fixture site), fixture-manifest (no manifest, or one the site does not match), fixture-incomplete (an export without its other origins or a request log), broke-key, payment-key, oauth-account. Every skip is counted by kind in the summary and the JUnit file`,
  ).argParser(commaListOf(PRECONDITION_KINDS));

/** `auto`, or `N[,operation=M]` requests per 60 s window (D-rate-limits); kept as text for the run to parse. */
function rateLimit(value: string): string {
  try {
    parseRateLimitOption(value);
  } catch {
    throw new InvalidArgumentError("Expected auto or N[,operation=M] (requests per 60 s, each at least 1).");
  }
  return value;
}

export const rateLimitOption = (what: string) =>
  new Option(
    "--rate-limit <limits>",
    `the target's limits (D-rate-limits): auto (default) learns them from the RateLimit headers it sends; N[,operation=M] states them, requests per 60 s (the account's, an operation's own), for a target that advertises none. ${what}`,
  ).argParser(rateLimit);

export const ignoreRateLimitsOption = (what: string) => new Option("--ignore-rate-limits", what).conflicts("rateLimit");

export const maxCreditsOption = (what: string) => new Option("--max-credits <n>", what).argParser(wholeNumber(0));

export const paymentMethodOption = (what: string) =>
  new Option(
    "--payment-method <method>",
    `pay per request in ${what} with this method (needs --payment-key); without it they are skipped (the payment-key precondition)`,
  ).choices(["test"] as const);

export const paymentKeyOption = () =>
  new Option("--payment-key <key>", "the target's test payment key (its --payment-test-key; D-payment-methods)").env(
    "PLUMBLINE_PAYMENT_KEY",
  );

export const oauthUserOption = (what: string) =>
  new Option(
    "--oauth-user <login>",
    `an account of the target's sign-in page: ${what} sign in and consent with it in headless Chromium ($PLUMBLINE_CHROMIUM, else the one the @sparticuz/chromium dependency ships); without it they are skipped where a person must consent (the oauth-account precondition)`,
  ).env("PLUMBLINE_OAUTH_USER");

export const oauthPasswordOption = () =>
  new Option("--oauth-password <password>", "that account's password").env("PLUMBLINE_OAUTH_PASSWORD");

export const reportDirOption = (what: string) => new Option("--report-dir <dir>", what);

export const noReportOption = () => new Option("--no-report", "write no report");

/** `--reporter github`: GitHub Actions annotations on top of the text (the default under GITHUB_ACTIONS=true). */
export const reporterOption = (what: string) =>
  new Option(
    "--reporter <name>",
    `text, or github: also print one GitHub Actions annotation (::error …) per ${what}, as spec diff --format github does (default: github when GITHUB_ACTIONS=true, else text)`,
  ).choices(REPORTERS);

/** `--contract seed|live` (D-live-version): the version of the contract a command loads; the seed is the default. */
export const contractOption = (what: string) =>
  new Option(
    "--contract <version>",
    `the version of the contract ${what}: seed (the interface specification) or live (the service's newer published document: /ask, /feedback, more result fields; docs/contract-versions.md)`,
  )
    .choices(CONTRACT_VERSIONS)
    .default("seed" as const);
