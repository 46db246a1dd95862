// Reading the Payment challenges of a 402 (D-payment-challenge) without loading the SDK: the parameters of each
// `Payment` challenge in `WWW-Authenticate`, its `request` decoded. Conformance and the fuzzer judge with this;
// paying goes through the SDK (spec/payment-test-method.ts, client/).

export interface PaymentChallenge {
  id: string;
  realm: string;
  method: string;
  intent: string;
  request: Record<string, unknown>;
  expires?: string;
  description?: string;
  opaque?: string;
  /** every parameter as sent */
  params: Record<string, string>;
}

/** The Payment challenges of a `WWW-Authenticate` value (other schemes, such as Bearer, are skipped). */
export function paymentChallenges(header: string | null | undefined): PaymentChallenge[] {
  if (!header) return [];
  const out: PaymentChallenge[] = [];
  // each challenge: the scheme, then auth-params up to the next scheme name (RFC 9110 §11.6.1)
  for (const m of header.matchAll(/(?:^|,\s*)Payment\s+((?:[A-Za-z_]+="[^"]*"(?:\s*,\s*(?=[A-Za-z_]+="))?)+)/g)) {
    const params = Object.fromEntries([...m[1].matchAll(/([A-Za-z_]+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    let request: Record<string, unknown> = {};
    try {
      request = JSON.parse(Buffer.from(params.request ?? "", "base64url").toString("utf8"));
    } catch {
      // left empty: a challenge without a readable request is judged by the caller
    }
    out.push({
      id: params.id ?? "",
      realm: params.realm ?? "",
      method: params.method ?? "",
      intent: params.intent ?? "",
      request,
      expires: params.expires,
      description: params.description,
      opaque: params.opaque,
      params,
    });
  }
  return out;
}
