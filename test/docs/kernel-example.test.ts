// The ten-line example of docs/kernel.md, run as written (through the package's own export name).
import { expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Sim, sleep, recv, send, MemorySink } from "kubelet-sim/sim";

it("docs/kernel.md's example runs and does what the page says", () => {
  const page = readFileSync(join(import.meta.dirname, "..", "..", "docs", "kernel.md"), "utf8");
  expect(page).toContain('const updates = sim.chan<string>("podUpdates", 1);');
  const sink = new MemorySink();
  const sim = new Sim({ seed: 7, strategy: { name: "random" }, bounds: { untilMs: 60_000 }, sinks: [sink] });
  const updates = sim.chan<string>("podUpdates", 1);
  sim.go("podworker/default/web", function* () {
    for (;;) {
      const { value, ok } = yield* recv(updates);
      if (!ok) return;
      yield* sleep(500);
      sim.emit("podworker", "SyncPod", { pod: "default/web", update: value });
    }
  });
  sim.go("config", function* () { yield* send(updates, "ADD"); updates.close(); });
  const result = sim.run();
  expect(result.verdict).toBe("completed");
  expect(sink.records.find((r) => r.kind === "SyncPod")).toMatchObject({ t: 500, pod: "default/web", update: "ADD" });
});
