// A signal that fires when the client hangs up before its answer is sent (issue 12: a batch kept running, holding
// credit, after its caller had gone). The response's "close" comes either after the answer is written or when the
// connection drops first; only the second aborts.
import type { FastifyReply } from "fastify";

export function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  const res = reply.raw;
  res.once("close", () => {
    if (!res.writableFinished) gone.abort(new Error("the client closed the connection"));
  });
  return gone.signal;
}
