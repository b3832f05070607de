// ComputePodQOS (after qos_test.go's cases) and the IP helpers the kubelet orders pod IPs with.
import { describe, expect, it } from "vitest";
import type { Container, Pod } from "../../src/k8s/pod.ts";
import { ComputePodQOS, GetPodQOS } from "../../src/k8s/qos.ts";
import { IPFamilyOfString, ipString, ParseIPSloppy } from "../../src/k8s/net.ts";

const pod = (...containers: Container[]): Pod => ({ metadata: { name: "p" }, spec: { containers } });
const c = (requests?: Record<string, string>, limits?: Record<string, string>): Container => ({
  name: "c",
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});

describe("ComputePodQOS", () => {
  it.each([
    ["no resources", pod({ name: "a" }), "BestEffort"],
    ["zero requests count as none", pod(c({ cpu: "0" })), "BestEffort"],
    ["non-compute resources do not count", pod(c({ "nvidia.com/gpu": "1" })), "BestEffort"],
    ["equal cpu and memory limits and requests", pod(c({ cpu: "100m", memory: "1Gi" }, { cpu: "100m", memory: "1Gi" })), "Guaranteed"],
    ["limits only on one resource", pod(c(undefined, { cpu: "100m" })), "Burstable"],
    ["requests below limits", pod(c({ cpu: "50m", memory: "1Gi" }, { cpu: "100m", memory: "1Gi" })), "Burstable"],
    ["one guaranteed, one best-effort container", pod(c({ cpu: "1", memory: "1Gi" }, { cpu: "1", memory: "1Gi" }), { name: "b" }), "Burstable"],
    ["1 cpu equals 1000m", pod(c({ cpu: "1", memory: "1G" }, { cpu: "1000m", memory: "1000M" })), "Guaranteed"],
  ] as const)("%s", (_d, p, want) => {
    expect(ComputePodQOS(p)).toBe(want);
  });

  it("GetPodQOS keeps a persisted class", () => {
    expect(GetPodQOS({ ...pod({ name: "a" }), status: { qosClass: "Guaranteed" } })).toBe("Guaranteed");
  });
});

describe("ParseIPSloppy and net.IP.String", () => {
  it.each([
    ["10.0.0.1", "10.0.0.1", "4"],
    ["010.000.000.001", "10.0.0.1", "4"],
    ["fd01::1234", "fd01::1234", "6"],
    ["2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1", "6"],
    ["2000::", "2000::", "6"],
    ["::ffff:1.2.3.4", "1.2.3.4", "4"],
    ["2001:db8:1:2:3::2", "2001:db8:1:2:3::2", "6"],
  ])("%s → %s (IPv%s)", (text, formatted, family) => {
    const ip = ParseIPSloppy(text)!;
    expect(ipString(ip)).toBe(formatted);
    expect(IPFamilyOfString(text)).toBe(family);
  });

  it.each(["", "10.0.0.1/24", "1.2.3", "256.0.0.1", "1::2::3", "g::1"])("%j is not an IP", (text) => {
    expect(ParseIPSloppy(text)).toBeNull();
    expect(IPFamilyOfString(text)).toBe("");
  });
});
