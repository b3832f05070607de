// Kubelet versions with patch numbers and the one comparison the models use.
import { describe, expect, it } from "vitest";
import { atLeast, checkedKubeletVersion, formatKubeletVersion, isSupportedKubeletVersion, kubeletVersion, parseKubeletVersion } from "../../src/kubelet/version.ts";
import { isLegacyEra } from "../../src/kubelet/kubelet_core.ts";
import { statusEra } from "../../src/kubelet/status/era.ts";
import { checkScenarioText } from "../../src/scenario/index.ts";
import { kubeletOverridesOf } from "../../src/cli/commands/run.ts";
import { overrideFlags } from "../../src/scenario/overrides.ts";

describe("parseKubeletVersion", () => {
  it.each([
    ["1.22", { minor: 22, patch: 0 }],
    ["1.22.4", { minor: 22, patch: 4 }],
    ["v1.35.1", { minor: 35, patch: 1 }],
    [" 1.19.16 ", { minor: 19, patch: 16 }],
    ["1", null],
    ["2.1", null],
    ["1.22.", null],
    ["1.22.4.1", null],
    ["1.x", null],
  ])("%j → %j", (text, want) => {
    expect(parseKubeletVersion(text)).toEqual(want);
  });

  it.each([
    [{ minor: 18, patch: 0 }, false],
    [{ minor: 19, patch: 0 }, true],
    [{ minor: 35, patch: 99 }, true],
    [{ minor: 36, patch: 0 }, false],
    [{ minor: 22, patch: 100 }, false],
  ])("supported %j: %s", (v, want) => {
    expect(isSupportedKubeletVersion(v)).toBe(want);
  });
});

describe("atLeast(version, release)", () => {
  it.each([
    ["1.22", "1.22", true],
    ["1.22", "1.22.0", true],
    ["1.22", "1.22.5", false],
    ["1.22.4", "1.22.5", false],
    ["1.22.5", "1.22.5", true],
    ["1.22.17", "1.22.5", true],
    ["1.23", "1.22.5", true],
    ["1.21.14", "1.22", false],
    ["1.35", "1.35", true],
    ["1.34.9", "1.35", false],
  ])("atLeast(%s, %s) = %s", (v, release, want) => {
    expect(atLeast(v, release)).toBe(want);
  });

  it("takes a bare minor as its .0 release and a parsed version as is", () => {
    expect(atLeast(22, "1.22.1")).toBe(false);
    expect(atLeast({ minor: 22, patch: 1 }, "1.22.1")).toBe(true);
    expect(formatKubeletVersion(kubeletVersion(22))).toBe("1.22.0");
  });

  it("refuses text that is not a version, and eras refuse releases the models lack", () => {
    expect(() => atLeast("one.two", "1.22")).toThrow(/not a kubelet version/);
    expect(() => checkedKubeletVersion("1.36", "test")).toThrow("test: unsupported kubelet version 1.36.0");
    expect(() => statusEra(18)).toThrow(/unsupported/);
  });

  it("places the pod-worker rewrite at 1.22.0", () => {
    expect([isLegacyEra("1.21.14"), isLegacyEra("1.22"), isLegacyEra("1.22.0")]).toEqual([true, false, false]);
  });
});

describe("kubelet.version in a scenario, and --kubelet-version", () => {
  const kubelet = (v: string) => {
    const r = checkScenarioText(`name: s\nkubelet: { version: "${v}" }\n`, "s.yaml");
    return r.ok ? r.scenario.kubelet : r.issues.map((i) => i.message).join("; ");
  };

  it("keeps the patch number, and a version without one is the .0 release", () => {
    expect(kubelet("1.22.4")).toMatchObject({ version: "1.22.4", minor: 22, patch: 4 });
    expect(kubelet("1.22")).toMatchObject({ version: "1.22", minor: 22, patch: 0 });
    expect(kubelet("1.35")).toMatchObject({ minor: 35, patch: 0 });
  });

  it("refuses releases the models lack, saying what it takes", () => {
    expect(kubelet("1.36")).toBe('expected a kubelet version from "1.19" to "1.35", optionally with a patch number ("1.22.4", at most .99), found "1.36"');
    expect(kubelet("1.22.100")).toMatch(/at most \.99/);
  });

  it("--kubelet-version takes a patch release, and the replay key carries it", () => {
    const o = kubeletOverridesOf({ kubeletVersion: "1.22.4" });
    expect(o.kubelet).toEqual({ version: "1.22.4" });
    expect(overrideFlags(o.kubelet)).toBe(" --kubelet-version 1.22.4");
    expect(() => kubeletOverridesOf({ kubeletVersion: "1.22.x" })).toThrow("expected a version like 1.22 or 1.22.4");
  });
});
