import { startMock } from "@plumbline-kit/mock";
import { afterAll, expect, it } from "vitest";

const mock = await startMock({ port: 0, keys: [{ key: "test-key", credits: 2 }] });
afterAll(() => mock.close());

it("searches until the credits run out", async () => {
  const search = () =>
    fetch(`${mock.url}/search`, {
      method: "POST",
      headers: { authorization: "Bearer test-key", "content-type": "application/json" },
      body: JSON.stringify({ query: "plumbline" }),
    });
  expect((await search()).status).toBe(200);
  expect((await search()).status).toBe(200);
  expect((await search()).status).toBe(402); // the balance is spent: the contract's 402
});
