// The keys a mock started with none uses, printed at start (kept apart so `plumbline mock --help` and bad
// arguments answer without loading the server).
export const DEMO_KEY = "plumbline-demo-key";
/** the test payment method's key when none is given (D-payment-methods) */
export const DEMO_PAYMENT_KEY = "plumbline-demo-payment-key";
