// The payments the mock received with the Payment scheme, under the admin API (D-payment-charging).

import type { PaymentStore } from "@plumbline-kit/platform/payment-store";
import type { FastifyInstance } from "fastify";

export function paymentAdminRoutes(app: FastifyInstance, payments: PaymentStore) {
  app.get("/__mock/payments", async (req) => {
    const q = req.query as { operationId?: string; limit?: string };
    const limit = q.limit ? Number(q.limit) : undefined;
    return {
      payments: await payments.list({
        operationId: q.operationId,
        limit: limit && Number.isSafeInteger(limit) && limit > 0 ? limit : undefined,
      }),
    };
  });
}
