// --kubelet-version and --variant: written into the scenario's YAML value before the schema sees
// it, so a version's defaults follow it, and what the flags break is located in the file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScenarioError, formatIssue } from "../../src/scenario/index.ts";
import { applyKubeletOverrides, loadScenarioWithOverrides, overrideFlags, parseVariantFlags } from "../../src/scenario/overrides.ts";
import { tempDir } from "../cli/helpers.ts";

const SCENARIO = `name: overrides
kubelet:
  version: "1.30"
  featureGates: { SidecarContainers: true }
  variants: { proberReadsLatestPod: true }
pods:
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: web }, spec: { containers: [{ name: app, image: nginx:1.25 }] } }
timeline:
  - { at: 0s, create: web }
`;

function file(text = SCENARIO): string {
  const path = join(tempDir(), "s.yaml");
  writeFileSync(path, text);
  return path;
}

describe("applyKubeletOverrides", () => {
  it("sets the version and merges variants over the file's, leaving the rest as it was", () => {
    const raw = { name: "x", kubelet: { version: "1.30", variants: { a: true, b: true }, maxPods: 10 } };
    expect(applyKubeletOverrides(raw, { version: "1.22", variants: { b: false, c: true } })).toEqual({
      name: "x", kubelet: { version: "1.22", variants: { a: true, b: false, c: true }, maxPods: 10 },
    });
    expect(raw.kubelet.version).toBe("1.30"); // a new value; the input is untouched
    expect(applyKubeletOverrides({ name: "x" }, { version: "1.25" })).toEqual({ name: "x", kubelet: { version: "1.25" } });
    expect(applyKubeletOverrides(raw, {})).toEqual(raw);
  });
});

describe("parseVariantFlags and overrideFlags", () => {
  it.each([
    [["a"], { a: true }],
    [["a=false", "b=true"], { a: false, b: true }],
    [["a", "a=false"], { a: false }],
  ])("%j → %j", (flags, want) => expect(parseVariantFlags(flags)).toEqual(want));

  it.each([["A"], ["a=no"], ["a b"], [""]])("refuses %j with what was expected", (flag) => {
    expect(() => parseVariantFlags([flag])).toThrow(/expected NAME, NAME=true or NAME=false/);
  });

  it("prints the flags that reproduce the overrides, variants sorted", () => {
    expect(overrideFlags(undefined)).toBe("");
    expect(overrideFlags({ version: "1.22", variants: { z: true, a: false } })).toBe(" --kubelet-version 1.22 --variant a=false --variant z");
  });
});

describe("loadScenarioWithOverrides", () => {
  it("runs the file's scenario under the overriding version and variants", () => {
    const { scenario } = loadScenarioWithOverrides(file(), { version: "1.29", variants: { proberReadsLatestPod: false, cancelImagePullOnTermination: true } });
    expect(scenario.kubelet.version).toBe("1.29");
    expect(scenario.kubelet.minor).toBe(29);
    expect(scenario.kubelet.variants).toEqual({ proberReadsLatestPod: false, cancelImagePullOnTermination: true });
  });

  it("takes the overriding version's defaults, as if the file had said it", () => {
    const text = SCENARIO.replace("  featureGates: { SidecarContainers: true }\n", "");
    expect(loadScenarioWithOverrides(file(text), undefined).scenario.kubelet.featureGates.SidecarContainers).toBe(true);
    expect(loadScenarioWithOverrides(file(text), { version: "1.28" }).scenario.kubelet.featureGates.SidecarContainers).toBe(false);
  });

  it("locates in the file what the flags break, and names the flags", () => {
    const path = file();
    try {
      loadScenarioWithOverrides(path, { version: "1.22" });
      expect.unreachable("1.22 has no SidecarContainers gate");
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioError);
      expect((err as ScenarioError).issues.map(formatIssue)).toEqual([
        `${path}:4:38: kubelet.featureGates.SidecarContainers: unrecognized feature gate for kubelet 1.22: SidecarContainers exists from 1.28 (with --kubelet-version 1.22)`,
      ]);
    }
  });

  it("refuses a variant no model knows, and a version out of range", () => {
    expect(() => loadScenarioWithOverrides(file(), { variants: { noSuchVariant: true } })).toThrow(/unknown field "noSuchVariant"; expected one of/);
    expect(() => loadScenarioWithOverrides(file(), { version: "1.99" })).toThrow(/expected a kubelet version from "1\.\d+" to "1\.\d+", optionally with a patch number .*, found/);
  });
});
