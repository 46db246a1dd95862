// Reading a HAR 1.2 recording for replay (issue 28; /work/har-conventions.md, as `plumbline proxy --record` writes
// it, and as browsers, WireMock and Mockoon export). Only the fields replay reads are required; every problem is a
// ReplayFileError naming the file and what is wrong with it, never a crash, and a file is bounded in size before a
// byte of it is parsed.
import { readFile, stat } from "node:fs/promises";
import type { Contract, FieldError, JsonSchema } from "@plumbline-kit/contract";

/** Files larger than this are refused before they are read (`maxBytes` changes it). */
export const DEFAULT_REPLAY_MAX_BYTES = 256 * 1024 * 1024;

export interface HarHeader {
  name: string;
  value: string;
}

/**
 * An entry as far as replay reads it. Structural and without index signatures, so the standard HAR types (the
 * `har-format` package's `Har`, the proxy's `PlumblineHar`) and plain parsed JSON are all accepted.
 */
export interface HarEntry {
  request: {
    method: string;
    url: string;
    headers?: HarHeader[];
    postData?: { mimeType?: string; text?: string };
  };
  response: {
    status: number;
    headers?: HarHeader[];
    content: { size?: number; mimeType?: string; text?: string; encoding?: string };
  };
  /** plumbline's own fields (HAR conventions): what the recorder redacted, and why an exchange has no answer */
  _plumbline?: { redacted?: string[]; error?: string; upstream?: string };
}

/** A HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/), as far as replay reads it. */
export interface HarDocument {
  log: { version?: string; entries: HarEntry[] };
}

/** A recording that cannot be replayed at all: unreadable, too big, not JSON, not HAR. */
export class ReplayFileError extends Error {
  readonly file: string;
  readonly problem: string;
  constructor(file: string, problem: string) {
    super(`replay ${file}: ${problem}`);
    this.name = "ReplayFileError";
    this.file = file;
    this.problem = problem;
  }
}

const header: JsonSchema = {
  type: "object",
  required: ["name", "value"],
  properties: { name: { type: "string", minLength: 1 }, value: { type: "string" } },
};

/** What replay reads of a HAR file; everything else HAR allows is left alone. */
const HAR_SCHEMA: JsonSchema = {
  type: "object",
  required: ["log"],
  properties: {
    log: {
      type: "object",
      required: ["entries"],
      properties: {
        version: { type: "string" },
        entries: {
          type: "array",
          items: {
            type: "object",
            required: ["request", "response"],
            properties: {
              request: {
                type: "object",
                required: ["method", "url"],
                properties: {
                  method: { type: "string", pattern: "^[A-Za-z]+$" },
                  url: { type: "string", minLength: 1 },
                  headers: { type: "array", items: header },
                  postData: { type: "object", properties: { mimeType: { type: "string" }, text: { type: "string" } } },
                },
              },
              response: {
                type: "object",
                required: ["status", "content"],
                properties: {
                  status: { type: "integer", minimum: 0, maximum: 999 },
                  headers: { type: "array", items: header },
                  content: {
                    type: "object",
                    properties: {
                      mimeType: { type: "string" },
                      text: { type: "string" },
                      encoding: { type: "string" },
                    },
                  },
                },
              },
              _plumbline: {
                type: "object",
                properties: {
                  redacted: { type: "array", items: { type: "string" } },
                  error: { type: "string" },
                  upstream: { type: "string" },
                },
              },
            },
          },
        },
      },
    },
  },
};

const checkers = new WeakMap<Contract, (value: unknown) => FieldError[] | null>();

function harProblems(contract: Contract, value: unknown): FieldError[] | null {
  let check = checkers.get(contract);
  if (!check) {
    check = contract.validators.compile(HAR_SCHEMA);
    checkers.set(contract, check);
  }
  return check(value);
}

/** A HAR document from a file or an object, checked for what replay reads. */
export async function readHar(
  source: string | HarDocument,
  contract: Contract,
  maxBytes = DEFAULT_REPLAY_MAX_BYTES,
  name = typeof source === "string" ? source : "<HAR object>",
): Promise<HarDocument> {
  let doc: unknown = source;
  if (typeof source === "string") {
    let text: string;
    try {
      const { size, isFile } = await stat(source).then((s) => ({ size: s.size, isFile: s.isFile() }));
      if (!isFile) throw new ReplayFileError(name, "is not a file");
      if (size > maxBytes)
        throw new ReplayFileError(
          name,
          `is ${mib(size)}, more than replay reads (${mib(maxBytes)}); split the recording, or raise the limit (replayMaxBytes)`,
        );
      text = await readFile(source, "utf8");
    } catch (err) {
      if (err instanceof ReplayFileError) throw err;
      throw new ReplayFileError(
        name,
        `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new ReplayFileError(name, `is not JSON (${(err as Error).message})`);
    }
  }
  const problems = harProblems(contract, doc);
  if (problems) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    const first = problems[0].message.replace(/^body /, "the document ");
    throw new ReplayFileError(name, `is not a HAR file replay can read: ${first}${more}`);
  }
  return doc as HarDocument;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 3 : 1)} MiB`;
}
