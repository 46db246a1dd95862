// `plumbline edges [options] -- CMD …`: a client's own tests, run once against the plain mock and once per edge of
// the contract. Declarations only: the runner is loaded once the arguments are good.
import { availableParallelism } from "node:os";
import { Command, commaListOf, exits, usageError, wholeNumber } from "@plumbline-kit/cli/command-kit";
import { WRAPPED_ARGUMENT, WRAPPED_USAGE, wrappedCommand } from "@plumbline-kit/cli/wrapped-command";
import { EDGE_IDS, EDGES } from "@plumbline-kit/contract/edges/catalogue";
import { plural } from "@plumbline-kit/contract/report/plural";

/** The catalogue as `--list` prints it. */
export function edgeList(): string {
  return EDGES.map(
    (e) =>
      `${e.id}\n  ${e.title}\n  answers: ${e.answer}\n  on: ${e.operations.join(", ")}\n  allowed by: ${e.allowedBy.join("; ")}\n  a client: ${e.handling}`,
  ).join("\n\n");
}

export function edgesCommand() {
  return new Command("edges")
    .description(
      "Run a client's own test command once against the mock (the baseline, which must pass), then once per edge of the contract (a 429 with Retry-After, 402 mid-batch, a failed deepcrawl task, description null, extra properties, a dropped connection, …), each against a fresh mock steered into that edge for every request it applies to; report per edge passed, failed or not exercised (docs/edges.md).",
    )
    .argument(
      WRAPPED_ARGUMENT,
      "after --: the command to run (e.g. npm test), with the mock's address in $PLUMBLINE_URL and a funded key in $PLUMBLINE_API_KEY, as `plumbline mock -- CMD` sets them",
    )
    .usage(WRAPPED_USAGE)
    .option(
      "--edges <ids>",
      "run only these edges (comma-separated ids; --list shows them)",
      commaListOf(EDGE_IDS as string[]),
    )
    .option(
      "--list",
      "print the edges (id, what the mock answers, the operations, what allows it, how a client handles it) and exit",
    )
    .option(
      "--timeout <s>",
      "each run's time limit in seconds: a run past it is stopped (SIGTERM, then SIGKILL) and counts as failed",
      wholeNumber(1),
      300,
    )
    .option("--report-dir <dir>", "write edges.json, edges.junit.xml and edges.html there")
    .option(
      "--run-all",
      "also run the edges that apply only to operations the baseline never called (by default they are not exercised without a run: a command calling the same operations every run cannot meet them)",
    )
    .option(
      "--jobs <n>",
      "runs at once, each against its own mock on its own port (default: the number of cores)",
      wholeNumber(1, 64),
    )
    .addHelpText(
      "after",
      `
Exit codes: 0 every exercised edge passed, 1 an exercised edge failed, 2 the baseline failed (its output is
printed) or bad usage. An edge is not exercised when the command made no request it applies to; an edge whose
operations the baseline never called is not run at all (--run-all runs it).`,
    )
    .action(
      exits(async (operands, opts, cmd) => {
        if (opts.list) {
          console.log(edgeList());
          return 0;
        }
        const command = wrappedCommand(cmd, operands);
        if (!command) usageError(cmd, "give the command to run after --, e.g. plumbline edges -- npm test");
        const { edgesTable, runEdges } = await import("./run-edges.ts");
        const jobs = opts.jobs ?? availableParallelism();
        const edges = opts.edges?.length ?? EDGES.length;
        console.log(
          `plumbline edges: ${(command as string[]).join(" ")}: the baseline, then ${plural(edges, "edge")} (${plural(jobs, "job")})`,
        );
        const result = await runEdges({
          command: command as string[],
          edges: opts.edges,
          timeoutMs: opts.timeout * 1000,
          jobs,
          reportDir: opts.reportDir,
          runAll: opts.runAll === true,
          onProgress: (line) => console.log(`  ${line}`),
        });
        if (!result.baseline.passed) {
          console.error(
            `plumbline edges: the baseline failed (exit ${result.baseline.exitCode}${result.baseline.timedOut ? ", timed out" : ""}): the command must pass against the plain mock first. Its output:\n${result.baseline.outputTail}`,
          );
          return 2;
        }
        console.log(`\n${edgesTable(result)}\n`);
        const failed = result.edges.filter((e) => e.verdict === "failed");
        for (const e of failed)
          console.log(
            `✗ ${e.edge.id}: ${e.edge.answer}\n  allowed by ${e.edge.allowedBy.join("; ")}; a client: ${e.edge.handling}\n  ${e.timedOut ? "timed out" : `exit ${e.exitCode}`}; the command's last lines:\n${e.outputTail.replace(/^/gm, "    ")}\n`,
          );
        const count = (v: string) => result.edges.filter((e) => e.verdict === v).length;
        console.log(
          `${failed.length ? `failed: ${failed.map((e) => e.edge.id).join(", ")}` : "no edge failed"} (${count("passed")} passed, ${count("failed")} failed, ${count("not exercised")} not exercised; ${(result.durationMs / 1000).toFixed(1)} s)`,
        );
        if (opts.reportDir) console.log(`reports: ${opts.reportDir}/edges.{json,junit.xml,html}`);
        return result.exitCode;
      }),
    );
}
