// The Mermaid diagram of a cluster run: one participant per node's kubelet and one per node's
// runtime, after the user and the apiserver; a kubelet's own requests come from it. (A one-node
// diagram keeps its per-component lanes: mermaid.test.ts's golden.)
import { describe, expect, it } from "vitest";
import { renderMermaid } from "../../src/report/mermaid.ts";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { grammarProblems } from "./mermaid_grammar.ts";

const SCENARIO = `name: two-nodes
until: 20s
nodes:
  - name: node-a
  - name: node-b
pods:
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: a }, spec: { nodeName: node-a, containers: [{ name: c, image: nginx }] } }
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: b }, spec: { nodeName: node-b, containers: [{ name: c, image: nginx }] } }
timeline:
  - { at: 0s, create: a }
  - { at: 0s, create: b }
  - { at: 10s, delete: b }
`;

describe("a cluster's Mermaid diagram", () => {
  const diagram = renderMermaid(simulate(loadScenarioText(SCENARIO, "two-nodes.yaml").scenario).records!, { maxMessages: 400 });
  const lines = diagram.split("\n");

  it("declares the user, the apiserver, then each node's kubelet and runtime, named through aliases", () => {
    expect(lines.filter((l) => /^ {4}(participant|actor) /.test(l))).toEqual([
      "    actor user",
      "    participant apiserver",
      "    participant kubeletnodea as kubelet@node-a",
      "    participant runtimenodea as runtime@node-a",
      "    participant kubeletnodeb as kubelet@node-b",
      "    participant runtimenodeb as runtime@node-b",
    ]);
    expect(grammarProblems(diagram)).toEqual([]);
  });

  it("draws each node's work on its own participants", () => {
    expect(lines).toContain("    apiserver-->>kubeletnodea: watch MODIFIED a");
    expect(lines).toContain("    apiserver-->>kubeletnodeb: watch MODIFIED b");
    expect(lines.some((l) => l.startsWith("    kubeletnodeb->>runtimenodeb: StopContainer"))).toBe(true);
    expect(lines.some((l) => /^ {4}kubeletnodea->>runtimenodeb|^ {4}kubeletnodeb->>runtimenodea/.test(l))).toBe(false);
  });

  it("draws a kubelet's status PATCH from its node, not as a request from the user", () => {
    expect(lines.some((l) => l.startsWith("    kubeletnodea->>apiserver: PATCH status"))).toBe(true);
    expect(lines.some((l) => l.includes("(kubelet@node"))).toBe(false);
  });
});
