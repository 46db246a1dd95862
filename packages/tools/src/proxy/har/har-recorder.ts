// `--record FILE`: every exchange as a HAR entry, memory bounded. Entries go to `FILE.partial` as they complete (one
// JSON entry per line, in completion order) and only their offsets stay in memory; a snapshot or the final file
// is assembled from there in the order the requests arrived. The final file is written to a temporary name and
// renamed, so FILE is always either absent or whole; `FILE.partial` is removed once FILE is in place (after a
// kill -9 it is left behind, every completed exchange in it).
import { once } from "node:events";
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { type FileHandle, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Exchange, ExchangeSink } from "../exchange.ts";
import { type RedactedView, redactedView, type ViewOptions } from "../redacted-view.ts";
import { harEntry, type PlumblineHar } from "./har-entry.ts";

const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };

export interface HarRecorderOptions extends ViewOptions {
  file: string;
  /** told once when an entry cannot be written (disk full): it is counted in `lost` */
  onError?: (message: string) => void;
}

export interface HarRecorder extends ExchangeSink {
  readonly file: string;
  /** entries recorded so far */
  readonly count: number;
  /** entries that could not be written */
  readonly lost: number;
  /** the recording so far, as HAR, written to `out` (entries in arrival order); recording goes on */
  snapshotTo(out: Writable): Promise<void>;
  /** the recording so far, parsed (holds it all in memory) */
  snapshot(): Promise<PlumblineHar>;
  /** writes FILE (atomically) and stops recording; later exchanges are not recorded */
  close(): Promise<void>;
  /** stops recording and removes FILE.partial without writing FILE (a proxy that could not start) */
  discard(): Promise<void>;
}

interface Slot {
  id: number;
  offset: number;
  length: number;
}

export async function createHarRecorder(o: HarRecorderOptions): Promise<HarRecorder> {
  mkdirSync(dirname(o.file), { recursive: true });
  const partial = `${o.file}.partial`;
  if (existsSync(partial)) {
    // what an earlier run left behind when it was killed: kept, not overwritten
    const kept = `${partial}.${Date.now()}`;
    renameSync(partial, kept);
    o.onError?.(`recording: ${partial} from an earlier run was moved to ${kept}`);
  }
  const handle: FileHandle = await open(partial, "w+");
  const slots: Slot[] = [];
  const pending = new Set<Promise<unknown>>();
  let offset = 0;
  let lost = 0;
  let closed: Promise<void> | null = null;
  const head = Buffer.from(
    `{"log":{"version":"1.2","creator":{"name":"plumbline","version":${JSON.stringify(pkg.version)}},"entries":[\n`,
  );
  const tail = Buffer.from("\n]}}\n");

  function add(ex: Exchange) {
    if (closed) return;
    let line: Buffer;
    try {
      const view: RedactedView = redactedView(ex, o);
      line = Buffer.from(`${JSON.stringify(harEntry(ex, view))}\n`);
    } catch (err) {
      lost++;
      o.onError?.(`recording: exchange ${ex.id} could not be turned into a HAR entry: ${(err as Error).message}`);
      return;
    }
    const slot = { id: ex.id, offset, length: line.length - 1 };
    offset += line.length;
    const write = handle.write(line, 0, line.length, slot.offset).then(
      () => {
        slots.push(slot);
      },
      (err: Error) => {
        lost++;
        o.onError?.(`recording: exchange ${ex.id} could not be written to ${partial}: ${err.message}`);
      },
    );
    pending.add(write);
    write.finally(() => pending.delete(write));
  }

  /** The HAR so far, in chunks: written entries in id order, each scrubbed of every secret known by now. */
  async function* chunks(): AsyncGenerator<Buffer> {
    await Promise.all(pending);
    const order = [...slots].sort((a, b) => a.id - b.id);
    yield head;
    for (let i = 0; i < order.length; i++) {
      const s = order[i];
      const buf = Buffer.alloc(s.length);
      await handle.read(buf, 0, s.length, s.offset);
      const text = o.redactor.scrub(buf.toString("utf8"));
      yield Buffer.from(i === 0 ? text : `,\n${text}`);
    }
    yield tail;
  }

  async function writeFinal() {
    const tmp = `${o.file}.${process.pid}.tmp`;
    const out = await open(tmp, "w");
    try {
      const stream = out.createWriteStream();
      await pipeline(Readable.from(chunks()), stream);
    } finally {
      await out.close().catch(() => {});
    }
    await rename(tmp, o.file);
    await handle.close();
    await rm(partial, { force: true });
  }

  return {
    file: o.file,
    get count() {
      return slots.length + pending.size;
    },
    get lost() {
      return lost;
    },
    add,
    async snapshotTo(out) {
      if (closed) {
        // recording has ended: the snapshot is the file
        await closed;
        for await (const chunk of createReadStream(o.file)) if (!out.write(chunk)) await once(out, "drain");
        return;
      }
      for await (const chunk of chunks()) {
        if (!out.write(chunk)) await once(out, "drain");
      }
    },
    async snapshot() {
      if (closed) {
        await closed;
        return JSON.parse(readFileSync(o.file, "utf8")) as PlumblineHar;
      }
      const parts: Buffer[] = [];
      for await (const chunk of chunks()) parts.push(chunk);
      return JSON.parse(Buffer.concat(parts).toString("utf8")) as PlumblineHar;
    },
    close() {
      closed ??= writeFinal();
      return closed;
    },
    discard() {
      closed ??= handle.close().then(() => rm(partial, { force: true }));
      return closed;
    },
  };
}
