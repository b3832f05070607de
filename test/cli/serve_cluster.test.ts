// `kubelet-sim serve --node NAME` on a cluster: the named node's kubelet answers, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAIN } from "../../src/cli/colour.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { startServe, type RunningServe } from "../../src/cli/commands/serve.ts";

function captureIo(): { io: CliIo; out: () => string } {
  let out = "";
  const stream = { write: (t: string) => void (out += t), palette: PLAIN };
  return { io: { stdout: stream, stderr: stream }, out: () => out };
}

describe("serve --node on a cluster", () => {
  let s: RunningServe;
  let printed: () => string;

  beforeAll(async () => {
    const { io, out } = captureIo();
    printed = out;
    s = (await startServe({ file: "examples/cluster/workloads.yaml", at: ["30s"], port: 0, node: "node-b" }, io))!;
  });
  afterAll(async () => {
    await s.stop();
  });

  it("says which node it serves", () => {
    expect(printed().split("\n")[1]).toBe(`serving the simulated kubelet of node node-b of examples/cluster/workloads.yaml at t=30s on ${s.listening.url}`);
  });

  it("serves that node's pods, and only them", async () => {
    const body = (await (await fetch(`${s.listening.url}/pods`)).json()) as { items: { metadata: { name: string }; spec: { nodeName: string } }[] };
    const onB = [...Object.values(s.session.handle.cluster.api.store.pods)].filter((p) => p.spec.nodeName === "node-b").map((p) => p.metadata.name).sort();
    expect(onB.length).toBeGreaterThan(0);
    expect(body.items.map((p) => p.spec.nodeName)).toEqual(onB.map(() => "node-b"));
    expect(body.items.map((p) => p.metadata.name).sort()).toEqual(onB);
  });

  it("refuses a node the cluster does not have", async () => {
    const { io } = captureIo();
    await expect(startServe({ file: "examples/cluster/workloads.yaml", at: ["1s"], port: 0, node: "node-x" }, io)).rejects.toThrow(
      "--node node-x: expected one of the cluster's nodes (node-a, node-b, node-c)",
    );
  });
});
