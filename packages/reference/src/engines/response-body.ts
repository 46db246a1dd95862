// Reads a response body under a byte cap, undoing Content-Encoding (gzip, deflate, br) on the way (issue 5: a
// response size cap; a gzip bomb must not exhaust memory). The cap counts decoded bytes, which bounds raw ones too.
import { type Duplex, PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { constants, createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

export class BodyTooLargeError extends Error {}
/** The shared budget of a render ran out (byte-budget.ts); a kind of too-large body. */
export class BudgetExceededError extends BodyTooLargeError {}
export class UnsupportedEncodingError extends Error {}

// Z_SYNC_FLUSH: tolerate a truncated stream as browsers do rather than failing the whole page.
const FLUSH = { finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_FLUSH = { finishFlush: constants.BROTLI_OPERATION_FLUSH };

function decoder(coding: string): Duplex {
  switch (coding) {
    case "gzip":
    case "x-gzip":
      return createGunzip(FLUSH);
    case "deflate":
      return createInflate(FLUSH);
    case "br":
      return createBrotliDecompress(BROTLI_FLUSH);
    case "identity":
    case "":
      return new PassThrough();
    default:
      throw new UnsupportedEncodingError(`unsupported Content-Encoding "${coding}"`);
  }
}

/** Codings in the order to undo them (the header lists them in the order they were applied). */
function codings(header: string | undefined): string[] {
  return (header ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean)
    .reverse();
}

/** The whole body, decoded; throws BodyTooLargeError past `maxBytes` (the pipeline then destroys the socket). */
export async function readBody(
  body: AsyncIterable<Buffer> & NodeJS.ReadableStream,
  contentEncoding: string | undefined,
  maxBytes: number,
  budget?: { take(bytes: number): boolean; limit: number },
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const tooLarge = () => new BodyTooLargeError(`the response is larger than ${maxBytes} bytes`);
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      if (budget && !budget.take(chunk.length))
        throw new BudgetExceededError(`the page's requests together passed ${budget.limit} bytes`);
      chunks.push(chunk);
    }
  };
  const stages = codings(contentEncoding).map(decoder);
  try {
    // the variadic form takes a final async function, which the typed overloads do not spell out
    await (pipeline as (...streams: unknown[]) => Promise<void>)(body, ...stages, collect);
  } catch (err) {
    // destroying the body on the way out can surface as an AbortError first; the cap is the real cause
    throw size > maxBytes && !(err instanceof BudgetExceededError) ? tooLarge() : err;
  }
  return Buffer.concat(chunks, size);
}

/** "5,242,880 bytes (5 MiB)": a cap as a message names it. */
export function bytesCap(maxBytes: number): string {
  const mib = maxBytes / (1024 * 1024);
  const unit = Number.isInteger(mib) ? ` (${mib} MiB)` : "";
  return `${maxBytes.toLocaleString("en-US")} bytes${unit}`;
}

/**
 * A fetch() Response's body under a byte cap, read chunk by chunk (fetch has already undone Content-Encoding, so the
 * cap counts decoded bytes): throws BodyTooLargeError as soon as a declared Content-Length or the bytes read pass
 * `maxBytes`, and cancels the body so the connection is closed rather than drained (issue 38: an upstream that
 * answers without end must not make the reference hold its answer).
 */
export async function readResponseBody(res: Response, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new BodyTooLargeError(`the answer is larger than ${bytesCap(maxBytes)}`);
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!res.body) return Buffer.alloc(0);
  try {
    return await readBody(Readable.fromWeb(res.body as import("node:stream/web").ReadableStream), undefined, maxBytes);
  } catch (err) {
    throw err instanceof BodyTooLargeError ? tooLarge() : err;
  }
}
