// The HTML view of an exploration summary in a real browser (headless Chromium, see chromium.ts):
// the page of a guided exploration compared with pos loads offline with no error and no request,
// and draws one coverage line per strategy, rising from the origin to the coverage each reached.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exploreSync, jsonLine, summarize, type ExploreOptions } from "../../src/explore/index.ts";
import { renderExploreHtml } from "../../src/report/explore_view.ts";
import { TWO_PODS } from "../explore/canary.ts";
import { launchChromium, type Browser } from "./chromium.ts";

let browser: Browser;
let dir: string;

beforeAll(async () => {
  browser = await launchChromium();
  dir = mkdtempSync(join(tmpdir(), "kubelet-sim-explore-view-"));
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the exploration view", () => {
  it("draws a coverage line per strategy, offline, with no error", async () => {
    const base: ExploreOptions = { source: { file: TWO_PODS }, runs: 10, strategy: "guided", swarm: "auto", coverage: true, seed: 2, keepGoing: true, shrink: false, outDir: null };
    const entries = (["guided", "pos"] as const).map((strategy) => {
      const s = summarize(exploreSync({ ...base, strategy }));
      return { label: s.strategy, summary: s };
    });
    const file = join(dir, "view.html");
    writeFileSync(file, renderExploreHtml(entries));
    const page = await browser.newPage({ width: 1000, height: 800 });
    const errors: string[] = [];
    const requests: string[] = [];
    const url = pathToFileURL(file).href;
    page.on("pageerror", (e) => void errors.push(e.message));
    page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
    page.on("request", (r) => void (r.url() !== url && requests.push(r.url())));
    await page.goto(url);
    const lines = await page.$$eval("polyline.coverage", (els) => els.map((e) => {
      const box = (e as unknown as { getBBox(): { width: number; height: number } }).getBBox();
      return { strategy: e.getAttribute("data-strategy"), width: box.width, height: box.height };
    }));
    expect(lines.map((l) => l.strategy)).toEqual(["guided:4", "pos"]);
    for (const l of lines) {
      expect(l.width).toBeGreaterThan(100);
      expect(l.height).toBeGreaterThan(10);
    }
    const table = await page.$$eval("table:first-of-type tbody tr td:nth-child(4)", (tds) => tds.map((td) => td.textContent));
    expect(table).toEqual(entries.map((e) => String(jsonLine(e.summary).coverage!.features)));
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });
});
