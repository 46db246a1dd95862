import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "reports/**"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
