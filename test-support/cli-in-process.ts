// `plumbline ARGS` through the dispatcher in process (packages/cli/src/cli.js main): the same parsing, actions,
// printed lines and exit codes as the command run as a child process, without another Node starting and loading
// the contract again. A test file keeps a real child-process run (./cli-process.ts) where the process itself is what
// it judges. Test glue.
import { main } from "@plumbline-kit/cli/cli";
import { vi } from "vitest";

/** What the command printed on either stream, in order, and its exit code. */
export async function plumblineInProcess(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
  const err = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
  // as test-support/cli-process.ts runs a child: without GITHUB_ACTIONS (under GitHub Actions it adds annotations)
  const actions = process.env.GITHUB_ACTIONS;
  delete process.env.GITHUB_ACTIONS;
  try {
    return { code: await main(args), out: lines.join("\n") };
  } finally {
    if (actions !== undefined) process.env.GITHUB_ACTIONS = actions;
    log.mockRestore();
    err.mockRestore();
  }
}
