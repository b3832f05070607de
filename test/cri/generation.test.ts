// The runtime's generation counter (src/cri/store.ts): every change of what the runtime reports
// bumps it, so a cache that sees the same generation may reuse what it derived from the records.
// Every bundled scenario (which between them start, stop, kill, remove, fail and restart
// containers, sandboxes and the runtime itself) runs with a sink that, at every trace record,
// compares a fingerprint of every record the runtime keeps with the one at the last record: a
// different fingerprint under the same generation is a change that was not counted.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { startSimulation } from "../../src/simulate.ts";
import { RuntimeStore } from "../../src/cri/store.ts";
import type { TraceRecord } from "../../src/sim/index.ts";
import { bundledScenarios, ROOT } from "../cli/golden_table.ts";

function fingerprint(store: RuntimeStore): string {
  const sandboxes = [...store.sandboxes.values()].map((s) => [s.id, s.state, s.ip, s.createdAtMs]);
  const containers = [...store.containers.values()].map((c) => [
    c.id, c.state, c.startedAtMs, c.finishedAtMs, c.exitCode, c.reason, c.message, c.sigtermAtMs, c.imageRef,
  ]);
  return JSON.stringify([sandboxes, containers, [...store.images.keys()]]);
}

describe("the runtime's generation", () => {
  it("counts adding, changing and removing records", () => {
    const store = new RuntimeStore();
    const seen = [store.generation];
    store.addImage("busybox");
    seen.push(store.generation);
    store.addImage("busybox");
    seen.push(store.generation);
    store.images.delete("nothing");
    seen.push(store.generation);
    store.images.clear();
    seen.push(store.generation);
    store.touch();
    seen.push(store.generation);
    // Adding counts, adding what is there and removing what is not do not, clearing and touch() do.
    expect(seen).toEqual([0, 1, 1, 1, 2, 3]);
  });

  it.each(bundledScenarios())("moves with every change of the runtime's records in %s", (file) => {
    const { scenario } = loadScenarioFile(join(ROOT, file));
    let store: RuntimeStore | null = null;
    let last = { generation: -1, fp: "" };
    const uncounted: string[] = [];
    const sink = {
      wantsLines: false,
      write(rec: TraceRecord): void {
        if (store === null) return;
        const now = { generation: store.generation, fp: fingerprint(store) };
        if (now.fp !== last.fp && now.generation === last.generation) uncounted.push(`${rec.t}ms before ${rec.component} ${rec.kind}`);
        last = now;
      },
    };
    const handle = startSimulation(scenario, { sinks: [sink], keepRecords: false });
    store = handle.node.runtime.store;
    last = { generation: store.generation, fp: fingerprint(store) };
    handle.finish();
    expect(uncounted).toEqual([]);
    expect(store.generation).toBeGreaterThan(0);
  });
});
