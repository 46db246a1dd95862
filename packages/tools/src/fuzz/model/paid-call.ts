// The paying command of the stateful model (D-payment-challenge, D-payment-charging): an anonymous call gets the
// 402 Payment challenge priced per entry; paid with the test method it answers as a key holder's call would,
// with a Payment-Receipt when it succeeded; the same credential again is refused as replayed. The account's
// balance must not move (the model checks it after every command).
import { type CheckFailure, fail } from "../checks/check-failure.ts";
import { conformanceFailures, transportFailures } from "../checks/transport-checks.ts";
import { judgeValidAnswer } from "../checks/valid-answer.ts";
import type { FuzzCase } from "../fuzz-case.ts";
import type { CommandSpec } from "./model-command.ts";
import type { Real } from "./model-state.ts";

type Obj = Record<string, unknown>;

export async function paidCall(s: Extract<CommandSpec, { kind: "paid-call" }>, r: Real): Promise<CheckFailure[]> {
  const key = r.paymentKey;
  if (!key) return [];
  // loaded only when payments are fuzzed: the SDK is a heavy import
  const { paymentChallenges, testCredential } = await import("@plumbline-kit/contract/payment-test-method");
  const path = r.contract.operation(s.operationId).path;
  const c: FuzzCase = {
    operationId: s.operationId,
    request: { method: "POST", path, body: s.body },
    violation: null,
    ...(s.fetched ? { fetched: s.fetched } : {}),
  };
  const anonymous = await r.client.send(c.request, null);
  if (!anonymous.ok) return transportFailures(anonymous);
  const out = [
    ...transportFailures(anonymous, 402),
    ...conformanceFailures(r.contract, s.operationId, anonymous, c.request),
  ];
  const challenge = paymentChallenges(String(anonymous.headers["www-authenticate"] ?? "")).find(
    (x) => x.method === "test",
  );
  if (anonymous.status !== 402 || !challenge)
    return [...out, fail("model-payment", `anonymous ${s.operationId}: ${anonymous.status} without a test challenge`)];
  // the challenge's amount against the price: the registry's payment-challenge, judged above (conformanceFailures)
  const credential = testCredential(key, challenge);
  const paid = await r.client.send({ ...c.request, headers: { authorization: credential } }, null);
  if (!paid.ok) return [...out, ...transportFailures(paid)];
  // judged as a call nothing can run short of: paid for up front, no balance involved
  const verdict = judgeValidAnswer(r.contract, c, paid, Number.MAX_SAFE_INTEGER, r.fetches);
  out.push(
    ...transportFailures(paid, verdict.expectedStatus),
    ...conformanceFailures(r.contract, s.operationId, paid, c.request),
    ...verdict.failures,
  );
  if (paid.status >= 200 && paid.status < 300 && !paid.headers["payment-receipt"])
    out.push(fail("model-payment", `paid ${s.operationId} answered ${paid.status} without a Payment-Receipt`));
  const replayed = await r.client.send({ ...c.request, headers: { authorization: credential } }, null);
  if (!replayed.ok) return [...out, ...transportFailures(replayed)];
  const code = (replayed.json as Obj | undefined)?.code;
  if (replayed.status !== 402 || code !== "PLB_PAYMENT_REPLAYED")
    out.push(fail("model-payment", `a replayed credential answered ${replayed.status} ${String(code)}`));
  return out;
}
