import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Simulations are CPU-bound and the CI machine has 2 cores.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
  },
});
