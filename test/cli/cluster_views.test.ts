// A cluster scenario from the CLI: the pods view's NODE column, the Trace Event export's process per
// node, and the error for a scenario that gives both node: and nodes:.
import { describe, expect, it } from "vitest";
import { cli } from "./helpers.ts";

describe("kubelet-sim run on a cluster", () => {
  it("prints get pods -w with a NODE column", () => {
    const r = cli(["run", "examples/cluster/three-nodes.yaml", "--format", "pods"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+NODE\n/);
    expect(r.out).toMatch(/pinned\s+1\/1\s+Running\s+0\s+\S+\s+node-c/);
  });

  it("exports a Trace Event process per node", () => {
    const r = cli(["run", "examples/cluster/three-nodes.yaml", "--format", "chrome-trace"]);
    expect(r.code).toBe(0);
    const events = JSON.parse(r.out.slice(r.out.indexOf("{"))) as { traceEvents: { ph: string; name: string; args: { name: string } }[] };
    const processes = events.traceEvents.filter((e) => e.ph === "M" && e.name === "process_name").map((e) => e.args.name);
    for (const n of ["node-a", "node-b", "node-c", "scheduler", "apiserver"]) expect(processes).toContain(n);
  });
});
