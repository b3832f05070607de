// The StatefulSet controller in a cluster: ordinals made in order, each once the one before is
// Running and Ready; a force-deleted identity made again under its name; and the identity helpers.
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { getOrdinal, podForOrdinal } from "../../src/controllers/statefulset.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import type { TraceRecord } from "../../src/sim/index.ts";

const SET = (extra: string) => `
name: sts
until: 40s
nodes: [{ name: node-a }, { name: node-b }, { name: node-c }]
pods:
  - manifest:
      apiVersion: apps/v1
      kind: StatefulSet
      metadata: { name: db }
      spec:
        replicas: 3
        serviceName: db
        selector: { matchLabels: { app: db } }
        template:
          metadata: { labels: { app: db } }
          spec: { containers: [{ name: c, image: "postgres:16" }] }
        volumeClaimTemplates: [{ metadata: { name: data } }]
timeline:
  - { at: 0s, create: db-0 }
${extra}`;

function run(extra = ""): TraceRecord[] {
  return simulate(loadScenarioText(SET(extra), "sts.yaml").scenario).records!;
}

describe("StatefulSet controller (OrderedReady)", () => {
  it("creates db-0, db-1, db-2 in order, each after the one before is Running and Ready", () => {
    const records = run();
    const created = records.filter((r) => r.component === "apiserver" && r.kind === "Create" && r.result === "ok").map((r) => [r.pod, r.t] as const);
    expect(created.map(([p]) => p)).toEqual(["default/db-0", "default/db-1", "default/db-2"]);
    const readyAt = (pod: string) => records.find((r) => r.kind === "PodView" && r.pod === pod && r["ready"] === "1/1")!.t;
    expect(created[1]![1]).toBeGreaterThanOrEqual(readyAt("default/db-0"));
    expect(created[2]![1]).toBeGreaterThanOrEqual(readyAt("default/db-1"));
  });

  it("makes a force-deleted identity again, under its name, with a new UID", () => {
    const records = run("  - { at: 20s, forceDelete: db-0 }\n");
    const creates = records.filter((r) => r.component === "apiserver" && r.kind === "Create" && r.result === "ok" && r.pod === "default/db-0");
    expect(creates.length).toBe(2);
    expect(creates[1]!["uid"]).not.toBe(creates[0]!["uid"]);
    expect(creates[1]!.t).toBeGreaterThanOrEqual(20_000);
  });

  it("names each identity: ordinal, hostname, labels, claims", () => {
    const template = {
      apiVersion: "v1", kind: "Pod",
      metadata: { name: "db-0", labels: { app: "db", "statefulset.kubernetes.io/pod-name": "db-0", "apps.kubernetes.io/pod-index": "0" } },
      spec: { hostname: "db-0", containers: [], volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data-db-0" } }] },
    } as unknown as Pod;
    const p = podForOrdinal(template, "db", 2) as unknown as { metadata: Pod["metadata"]; spec: { hostname: string; volumes: { persistentVolumeClaim: { claimName: string } }[] } };
    expect(p.metadata.name).toBe("db-2");
    expect(p.spec.hostname).toBe("db-2");
    expect(p.metadata.labels).toMatchObject({ "statefulset.kubernetes.io/pod-name": "db-2", "apps.kubernetes.io/pod-index": "2", app: "db" });
    expect(p.spec.volumes[0]!.persistentVolumeClaim.claimName).toBe("data-db-2");
  });

  it.each([["db-0", 0], ["db-12", 12], ["db-01", -1], ["db-x", -1], ["dbx-1", -1], ["web-1", -1]])("getOrdinal(db, %s) = %i", (name, want) => {
    expect(getOrdinal("db", name)).toBe(want);
  });
});
