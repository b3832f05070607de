import { configDefaults, defineConfig } from "vitest/config";
import { HANG_MS } from "./test/setup/hang.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The consumer project's own files: test/package/consumer.test.ts runs them in a project of their own.
    exclude: [...configDefaults.exclude, "test/package/consumer/**"],
    globalSetup: ["test/setup/build.ts"],
    // Simulations are CPU-bound and the CI machine has 2 cores.
    pool: "forks",
    maxWorkers: 2,
    // A hang guard, not a speed bound (test/setup/hang.ts): vitest fails a test or hook that took
    // longer than its timeout even when it finished, so a tight one fails slow hosts.
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
  },
});
