import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The consumer project's own files: test/package/consumer.test.ts runs them in a project of their own.
    exclude: [...configDefaults.exclude, "test/package/consumer/**"],
    globalSetup: ["test/setup/build.ts"],
    // Simulations are CPU-bound and the CI machine has 2 cores.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
  },
});
