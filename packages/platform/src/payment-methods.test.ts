// The production payment methods' configuration (D-payment-methods). Tempo and Stripe settle on networks this
// project cannot reach offline, so what is tested here is the parsing of their flags and that the SDK accepts the
// configuration (the method objects it builds); the test method runs end to end in
// test-support/payment-flow-suite.ts.
import { describe, expect, it } from "vitest";
import { configureMethod, parsePaymentMethodSpec, paymentMethodsFromFlags } from "./payment-methods.ts";
import { createMemoryPaymentStore } from "./payment-store.ts";

const ADDR = "0x20c0000000000000000000000000000000000000";
const TO = "0x742d35Cc6634c0532925a3b844bC9e7595F8fE00";

describe("payment method flags", () => {
  it("parses tempo and stripe specs, the Stripe secret from the environment only", () => {
    expect(parsePaymentMethodSpec(`tempo:currency=${ADDR},recipient=${TO},testnet`, {})).toEqual({
      method: "tempo",
      currency: ADDR,
      recipient: TO,
      testnet: true,
    });
    expect(
      parsePaymentMethodSpec("stripe:network-id=net_1,payment-method-types=card+link", { STRIPE_SECRET_KEY: "sk_x" }),
    ).toEqual({
      method: "stripe",
      secretKey: "sk_x",
      networkId: "net_1",
      paymentMethodTypes: ["card", "link"],
      decimals: 2,
    });
  });

  it.each([
    ["tempo:currency=0x12,recipient=0x34", /token address/],
    [`tempo:currency=${ADDR}`, /recipient/],
    [`tempo:currency=${ADDR},recipient=${TO},color=red`, /unknown option "color"/],
    ["stripe:payment-method-types=card", /network-id/],
    ["stripe:network-id=n", /STRIPE_SECRET_KEY/],
    ["bitcoin:x=1", /tempo:… or stripe:…/],
  ])("refuses %s with a clear message", (spec, message) => {
    expect(() => parsePaymentMethodSpec(spec, {})).toThrow(message);
  });

  it("puts the test key first and refuses a short one", () => {
    expect(paymentMethodsFromFlags("long-enough-key", [`tempo:currency=${ADDR},recipient=${TO}`], {})).toEqual([
      { method: "test", key: "long-enough-key" },
      { method: "tempo", currency: ADDR, recipient: TO, testnet: false },
    ]);
    expect(() => paymentMethodsFromFlags("short", undefined, {})).toThrow(/at least 8/);
    expect(paymentMethodsFromFlags(undefined, undefined, {})).toEqual([]);
  });

  it("hands the SDK a configuration it accepts for each production method", async () => {
    const store = createMemoryPaymentStore();
    const tempo = await configureMethod({ method: "tempo", currency: ADDR, recipient: TO, testnet: true }, store);
    expect(tempo).toMatchObject({ name: "tempo", settlesOnVerify: true });
    expect(tempo.server).toMatchObject({ name: "tempo", intent: "charge" });
    const stripe = await configureMethod(
      { method: "stripe", secretKey: "sk_test_x", networkId: "net", paymentMethodTypes: ["card"], decimals: 2 },
      store,
    );
    expect(stripe).toMatchObject({ name: "stripe", settlesOnVerify: true });
    expect(stripe.server).toMatchObject({ name: "stripe", intent: "charge" });
    expect(stripe.requestFor("0.03", "usd", "plumbline")).toEqual({ amount: "0.03", currency: "usd" });
  });
});
