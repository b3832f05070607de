// examples/cluster/workloads.yaml, the cluster example: three nodes, a Deployment of 6, a
// StatefulSet of 3, a DaemonSet and a Job of 5 completions, 2 at a time, all from the CLI's loader.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";

const FILE = join(import.meta.dirname, "..", "..", "examples", "cluster", "workloads.yaml");

describe("examples/cluster/workloads.yaml", () => {
  const result = simulate(loadScenarioFile(FILE).scenario);
  const last = new Map<string, { status: string; node: string }>();
  for (const r of result.records!) if (r.kind === "PodView") last.set(String(r.pod).split("/")[1]!, { status: String(r["status"]), node: String(r["node"]) });
  const of = (prefix: string) => [...last].filter(([name]) => name.startsWith(prefix)).map(([, v]) => v);

  it("passes its expectations", () => {
    expect(result.ok).toBe(true);
  });

  it("runs 6 web pods, db-0 to db-2, one log agent per node and 5 completed pi pods", () => {
    expect(of("web-").filter((v) => v.status === "Running").length).toBe(6);
    expect(["db-0", "db-1", "db-2"].map((n) => last.get(n)?.status)).toEqual(["Running", "Running", "Running"]);
    expect(of("log-agent-").map((v) => v.node).sort()).toEqual(["node-a", "node-b", "node-c"]);
    expect(of("pi-").filter((v) => v.status === "Completed").length).toBe(5);
  });

  it("spreads the Deployment over the three nodes", () => {
    expect(new Set(of("web-").map((v) => v.node))).toEqual(new Set(["node-a", "node-b", "node-c"]));
  });
});
