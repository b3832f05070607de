// Where a goroutine stands: the source index of the model's TypeScript (scripts/play_sources.cjs),
// stack frames read into yield sites (the sources' own frames in Node; the bundle's through its
// table in the page, test/browser/play.test.ts), and upstream links at the release tag.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { parseStack, releaseTag, SiteFinder, standing, upstreamUrl, type SourceIndex } from "../../src/play/sources.ts";

const require = createRequire(import.meta.url);
const { sourceIndexOfSources } = require("../../scripts/play_sources.cjs") as { sourceIndexOfSources: (root: string) => SourceIndex };
const index = sourceIndexOfSources(new URL("../..", import.meta.url).pathname);

describe("the source index", () => {
  it("holds every generator of the models, each yield a site inside its function's lines", () => {
    expect(index.files.some((f) => f.path === "src/kubelet/pod_workers_legacy.ts" && f.upstream === "pkg/kubelet/pod_workers.go")).toBe(true);
    expect(index.fns.map((f) => f.name)).toContain("LegacyPodWorkers.managePodLoop");
    for (const s of index.sites) {
      const fn = index.fns[s.fn]!;
      expect(s.line).toBeGreaterThanOrEqual(fn.line);
      expect(fn.lines[s.line - fn.line]).toContain("yield");
    }
    expect(index.files.every((f) => !f.path.startsWith("src/sim/") && !f.path.startsWith("src/play/"))).toBe(true);
  });

  it("names the upstream file of each model that says which it models", () => {
    expect(index.files.find((f) => f.path === "src/kubelet/pleg/generic.ts")?.upstream).toBe("pkg/kubelet/pleg/generic.go");
    expect(index.files.find((f) => f.path === "src/kubelet/config/reflector.ts")?.upstream).toBe("staging/src/k8s.io/client-go/tools/cache/reflector.go");
  });
});

describe("a stack frame's site", () => {
  const finder = new SiteFinder(index, null);
  const site = index.sites.find((s) => index.files[index.fns[s.fn]!.file]!.path === "src/kubelet/pod_workers_legacy.ts")!;

  it("reads V8's frames, with or without a function name", () => {
    expect(parseStack("Error\n    at managePodLoop (file:///x/src/kubelet/a.ts:12:34)\n    at Generator.next (<anonymous>)\n    at /x/y.js:1:2")).toEqual([
      { url: "file:///x/src/kubelet/a.ts", line: 12, col: 34 },
      { url: "/x/y.js", line: 1, col: 2 },
    ]);
  });

  it("finds the yield a frame of the sources stands in, and none outside any", () => {
    expect(finder.siteOf({ url: `/somewhere/src/kubelet/pod_workers_legacy.ts`, line: site.line, col: site.col + 2 })).toBe(index.sites.indexOf(site));
    expect(finder.siteOf({ url: `/somewhere/src/kubelet/pod_workers_legacy.ts`, line: 1, col: 1 })).toBeNull();
    expect(finder.siteOf({ url: `/somewhere/src/sim/ops.ts`, line: 70, col: 3 })).toBeNull();
  });

  it("finds it in a bundle through the generated table, after the calibration's line offset", () => {
    const bundled: SourceIndex = { ...index, gen: [1, 1, -1, 3, 10, 7, 3, 20, -1], mark: 2 };
    const f = new SiteFinder(bundled, { url: "page.html", lineOffset: 40 });
    expect([f.siteOf({ url: "page.html", line: 43, col: 12 }), f.siteOf({ url: "page.html", line: 43, col: 25 }), f.siteOf({ url: "other.js", line: 43, col: 12 })]).toEqual([7, null, null]);
  });

  it("shows the innermost kubelet function, with the chain of outer ones", () => {
    const i = index.sites.indexOf(site);
    const cri = index.sites.findIndex((s) => index.files[index.fns[s.fn]!.file]!.path.startsWith("src/cri/"));
    expect(standing(index, [cri, i])).toEqual({ site: i, chain: ["LegacyPodWorkers.managePodLoop"] });
    expect(standing(index, [cri])?.site).toBe(cri);
  });
});

describe("upstream links", () => {
  it("point at the kubelet version's release tag", () => {
    expect([releaseTag("1.20"), releaseTag("1.22.3"), releaseTag("v1.35")]).toEqual(["v1.20.0", "v1.22.3", "v1.35.0"]);
    expect(upstreamUrl({ path: "src/kubelet/kubelet.ts", upstream: "pkg/kubelet/kubelet.go" }, "1.20")).toBe("https://github.com/kubernetes/kubernetes/blob/v1.20.0/pkg/kubelet/kubelet.go");
    expect(upstreamUrl({ path: "src/cri/core.ts", upstream: null }, "1.20")).toBeNull();
  });
});
