// The request journal (WireMock's "request journal"): what the mock was asked and what it answered, for tests
// that assert on traffic. A ring buffer, so a long-running mock keeps bounded memory.

export interface JournalEntry {
  seq: number;
  at: string;
  method: string;
  url: string;
  operationId: string | null;
  status: number;
  requestId: string;
  accountId: string | null;
  durationMs: number;
  /** present when the call was paid with the Payment scheme (D-payment-charging) */
  payment?: { method: string; amount: string; currency: string; receiptId: string; status: string };
  /** present when a recorded answer was replayed: `file#entry` of the recording (mock --replay) */
  replayedFrom?: string;
}

export interface RequestJournal {
  /** `atMs` is turned into the ISO `at` only when the journal is read (kept off the request path) */
  record(entry: Omit<JournalEntry, "seq" | "at"> & { atMs: number }): void;
  list(filter?: { operationId?: string; limit?: number }): JournalEntry[];
  /** entries held, at most `capacity` (the oldest are overwritten), and every request recorded since the reset */
  stats(): { entries: number; capacity: number; recorded: number };
  clear(): void;
}

/** Entries the journal keeps by default (`plumbline mock --journal-size`). */
export const DEFAULT_JOURNAL_SIZE = 10_000;

export function createRequestJournal(capacity = DEFAULT_JOURNAL_SIZE): RequestJournal {
  if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError("the journal's capacity must be >= 1");
  // a circular buffer: recording stays O(1) once it is full
  type Stored = Omit<JournalEntry, "at"> & { atMs: number };
  let ring: Stored[] = [];
  let seq = 0;
  const ordered = (): JournalEntry[] =>
    (ring.length < capacity ? ring : [...ring.slice(seq % capacity), ...ring.slice(0, seq % capacity)]).map(
      ({ atMs, ...e }) => ({ ...e, at: new Date(atMs).toISOString() }),
    );
  return {
    record(entry) {
      // written out, not `{ seq, ...entry }`: an object spread on every request cost ~1,200 instructions of the mock's
      // POST /search (callgrind, issue 25); the order of the fields is the one the journal has always listed
      const e: Stored = {
        seq: seq + 1,
        atMs: entry.atMs,
        method: entry.method,
        url: entry.url,
        operationId: entry.operationId,
        status: entry.status,
        requestId: entry.requestId,
        accountId: entry.accountId,
        durationMs: entry.durationMs,
      };
      if (entry.payment) e.payment = entry.payment;
      if (entry.replayedFrom) e.replayedFrom = entry.replayedFrom;
      if (ring.length < capacity) ring.push(e);
      else ring[seq % capacity] = e;
      seq += 1;
    },
    list(filter = {}) {
      const all = ordered();
      const matching = filter.operationId ? all.filter((e) => e.operationId === filter.operationId) : all;
      return filter.limit ? matching.slice(-filter.limit) : [...matching];
    },
    stats: () => ({ entries: ring.length, capacity, recorded: seq }),
    clear() {
      ring = [];
      seq = 0;
    },
  };
}
