// The client hanging up before its answer is sent (issue 12: a batch kept running, holding credit, after its caller
// had gone). The response's "close" comes either after the answer is written or when the connection drops first;
// only the second counts as a hang-up.
//
// Made for every paid call, so it costs little until it is used (issue 25): one closure on the response's "close"
// (`on`, not `once`: a response closes once, and `once` wraps and later removes the listener), no AbortController
// until an engine asks for the signal (a memoized mock answer never does), and no EventTarget listener for the
// call's open holds, which are released by a plain callback. Together with the engine context made a class
// (paid-operation.ts), that took a mock POST /search from ~138,700 to ~132,000-134,000 instructions outside the
// garbage collector (callgrind, two runs).
import type { FastifyReply } from "fastify";

export class ClientHangUp {
  /** true once the client has hung up before its answer was written */
  gone = false;
  #controller: AbortController | null = null;
  #onGone: (() => void) | null = null;

  constructor(reply: FastifyReply) {
    const res = reply.raw;
    res.on("close", () => {
      if (res.writableFinished) return;
      this.gone = true;
      this.#onGone?.();
      this.#controller?.abort(new Error("the client closed the connection"));
    });
  }

  /** Aborts when the client hangs up (already aborted if it has); made on first use. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.gone) this.#controller.abort(new Error("the client closed the connection"));
    }
    return this.#controller.signal;
  }

  /** Runs `fn` once, in the close event, if the client hangs up (one callback per call: its open holds). */
  whenGone(fn: () => void): void {
    this.#onGone = fn;
  }
}
