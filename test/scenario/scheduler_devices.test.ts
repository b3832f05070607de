// The scenario language's scheduler stand-in, device plugins and --feature-gate overrides: what
// they accept, and the located errors for what they refuse.
import { describe, expect, it } from "vitest";
import { checkScenarioText, loadScenarioText } from "../../src/scenario/index.ts";
import { applyKubeletOverrides, overrideFlags, parseFeatureGateFlags } from "../../src/scenario/overrides.ts";

const POD = (name: string, source = "api") => `
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: ${name} }
      spec: { containers: [{ name: app, image: x }] }
    source: ${source}`;

describe("scheduler", () => {
  it("takes bindings by pod name and resolves them to namespace/name, latency defaulting to 0s", () => {
    const s = loadScenarioText(`name: s\npods:${POD("first")}${POD("second")}\nscheduler:\n  - { bind: second, whenTerminal: first, latency: { min: 1s, max: 2s } }\n  - { bind: first, whenTerminal: second }\n`).scenario;
    expect(s.scheduler).toEqual([
      { bind: "default/second", whenTerminal: "default/first", latency: { minMs: 1_000, maxMs: 2_000 } },
      { bind: "default/first", whenTerminal: "default/second", latency: { minMs: 0, maxMs: 0 } },
    ]);
  });

  it("refuses an unknown pod and a static pod, with the field's path", () => {
    const r = checkScenarioText(`name: s\npods:${POD("first")}${POD("etcd", "file")}\nscheduler:\n  - { bind: secnd, whenTerminal: first }\n  - { bind: etcd, whenTerminal: first }\n`, "s.yaml");
    expect(r.ok).toBe(false);
    const messages = r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
    expect(messages).toContain('scheduler[0].bind: no pod "secnd" in this scenario\'s pods');
    expect(messages.some((m) => m.startsWith("scheduler[1].bind: pod \"default/etcd\" is a static pod"))).toBe(true);
  });
});

describe("kubelet.devicePlugins", () => {
  it("defaults to one device registered at once, and refuses a resource without a domain", () => {
    const s = loadScenarioText(`name: s\nkubelet: { devicePlugins: [{ resource: example.com/gpu }] }\n`).scenario;
    expect(s.kubelet.devicePlugins).toEqual([{ resource: "example.com/gpu", devices: 1, registerAfter: { minMs: 0, maxMs: 0 } }]);
    const r = checkScenarioText(`name: s\nkubelet: { devicePlugins: [{ resource: gpu }] }\n`, "s.yaml");
    expect(r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`)).toEqual(['kubelet.devicePlugins[0].resource: expected an extended resource name such as "example.com/gpu", found "gpu"']);
  });
});

describe("--feature-gate", () => {
  it("parses NAME=true|false and writes the gates over kubelet.featureGates; replay keys carry them", () => {
    const gates = parseFeatureGateFlags(["EventedPLEG=true", "SidecarContainers=false"]);
    expect(gates).toEqual({ EventedPLEG: true, SidecarContainers: false });
    expect(applyKubeletOverrides({ kubelet: { featureGates: { SidecarContainers: true } } }, { featureGates: gates })).toEqual({
      kubelet: { featureGates: { SidecarContainers: false, EventedPLEG: true } },
    });
    expect(overrideFlags({ version: "1.32", featureGates: { EventedPLEG: true } })).toBe(" --kubelet-version 1.32 --feature-gate EventedPLEG=true");
  });

  it("refuses a malformed flag", () => {
    expect(() => parseFeatureGateFlags(["EventedPLEG"])).toThrow(/expected NAME=true or NAME=false/);
    expect(() => parseFeatureGateFlags(["eventedPLEG=true"])).toThrow(/upstream name/);
  });
});
