// The HTML view in a real browser (headless Chromium, see chromium.ts): the page of a race's buggy
// run loads offline with no error, draws a lane per goroutine, shows the violation's invariant
// when its mark is clicked, narrows to the goroutines involved; the diff page shows both kubelets,
// each run's violation line in its own rows; the chrome-trace export made by the CLI is sound
// Trace Event Format. On a phone (390x844) and a desktop (1440x900): the timeline keeps most of the
// width, every record of a same-instant stack can be clicked, the badge of a run whose expectations
// failed is not "ok", and the violation's ring is drawn. The race is R05 of the catalog, whatever
// its scenario and sides say today.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { executeDiff } from "../../src/cli/diff.ts";
import { runRequest } from "../../src/cli/commands/run.ts";
import { executeRun } from "../../src/cli/session.ts";
import { RACES, raceScenario, sideOverrides } from "../../src/races/catalog.ts";
import { simulate } from "../../src/simulate.ts";
import { KernelLog } from "../../src/sim/index.ts";
import { inProcess } from "../cli/helpers.ts";
import { checkTraceEventFormat } from "../report/trace_event_format.ts";
import { launchChromium, type Browser } from "./chromium.ts";
import { HANG_MS } from "../setup/hang.ts";

// The page's globals, for the functions evaluated in the browser (this project's tsconfig has no DOM types).
declare const document: { documentElement: { scrollWidth: number; clientWidth: number }; getElementById(id: string): { getBoundingClientRect(): { width: number }; getAttribute(n: string): string | null } | null };
declare function getComputedStyle(e: unknown): { stroke: string };

const race = RACES.find((r) => r.id === "R05")!;

/** Runs `kubelet-sim run FILE --format F --out OUT` with the race's buggy side, in-process. */
function runTo(format: string, out: string): void {
  const o = sideOverrides(race.buggy);
  const args = { file: race.file, verbosity: "normal", explain: false, format: [format], out, kubeletVersion: o.version, variant: Object.entries(o.variants ?? {}).map(([k, v]) => `${k}=${v}`) };
  const ran = inProcess((io) => executeRun(runRequest(args as Parameters<typeof runRequest>[0]), io).exitCode);
  expect(ran.err).toBe("");
}

interface Loaded {
  page: Page;
  errors: string[];
  requests: string[];
  firstPaintMs: number;
  drawnMs: number;
}

let browser: Browser;
let dir: string;

async function open(file: string): Promise<Loaded> {
  const page = await browser.newPage({ width: 1400, height: 900 });
  const errors: string[] = [];
  const requests: string[] = [];
  const url = pathToFileURL(file).href;
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  page.on("pageerror", (e) => void errors.push(e.message));
  page.on("request", (r) => void (r.url() !== url && requests.push(r.url())));
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName("kubelet-sim:drawn").length > 0, undefined, { timeout: HANG_MS });
  // Chromium reports the first contentful paint a frame after it happens: on a loaded machine that
  // can be after the page's own "drawn" mark, so wait for the entry rather than read it too early.
  await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, undefined, { timeout: HANG_MS });
  const times = await page.evaluate(() => ({
    firstPaintMs: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
    drawnMs: performance.getEntriesByName("kubelet-sim:drawn")[0]!.startTime,
  }));
  return { page, errors, requests, ...times };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubelet-sim-browser-"));
  runTo("html", join(dir, "r05.html"));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe(`the HTML view of ${race.id} (${race.buggy.label}) in Chromium`, () => {
  let html: string;
  let view: Loaded;

  beforeAll(async () => {
    html = join(dir, "r05.html");
    view = await open(html);
  });

  it("loads with no console error and no network request, and reports its size and time to first paint", () => {
    expect(view.errors).toEqual([]);
    expect(view.requests).toEqual([]);
    expect(view.firstPaintMs).toBeGreaterThan(0);
    const bytes = statSync(html).size;
    console.info(`${race.id} buggy HTML: ${(bytes / 1024).toFixed(0)} KiB; first contentful paint ${view.firstPaintMs.toFixed(0)} ms, timeline drawn ${view.drawnMs.toFixed(0)} ms after navigation`);
    expect(bytes).toBeLessThan(4 * 1024 * 1024);
  });

  it("draws one lane per goroutine of the run", async () => {
    const kernel = new KernelLog();
    simulate(raceScenario(race, "buggy"), { observer: kernel });
    expect(await view.page.locator(".lane-label[data-proc]").count()).toBe(kernel.procs.length);
  });

  it("shows the invariant's id when the violation's mark is clicked", async () => {
    await view.page.locator(".violation-mark").first().click();
    await expect.poll(() => view.page.locator("#violation-invariant").textContent(), { timeout: HANG_MS }).toBe(race.invariant);
    expect(await view.page.locator("#details li a[data-seq]").count()).toBeGreaterThan(0);
  });

  it("narrows to the goroutines the violation involves, and back", async () => {
    const all = await view.page.locator(".lane-label").count();
    await view.page.locator("#narrow").click();
    const narrowed = await view.page.locator(".lane-label").count();
    expect(narrowed).toBeGreaterThan(0);
    expect(narrowed).toBeLessThan(all);
    expect(narrowed).toBeLessThanOrEqual(5);
    await view.page.locator("#narrow").click();
    expect(await view.page.locator(".lane-label").count()).toBe(all);
  });

  it("shows a clicked mark's record, zooms, and filters by pod", async () => {
    const ticks = () => view.page.locator("#axis-svg text").allTextContents();
    const before = await ticks();
    await view.page.locator("#zoom-in").click();
    await expect.poll(ticks, { timeout: HANG_MS }).not.toEqual(before);
    await view.page.locator("#fit").click();
    // The first record the violation names: well inside the plot, not under the label column.
    const seq = await view.page.evaluate<number>(`JSON.parse(document.getElementById("kubelet-sim-data").textContent).runs[0].violations[0].links[0]`);
    await view.page.locator(`rect.mark[data-seq="${seq}"]`).click();
    await expect.poll(() => view.page.locator("#details pre").textContent(), { timeout: HANG_MS }).toContain(`"seq": ${seq}`);
    await view.page.locator("#pod-filter").selectOption(race.pod);
    expect(await view.page.locator(".lane-label").count()).toBeGreaterThan(0);
    await view.page.locator("#pod-filter").selectOption("");
  });

  it("draws the diff of both sides on one time axis, both kubelets named", async () => {
    const file = join(dir, "diff.html");
    const [a, b] = [race.buggy, race.fixed].map((s) => ({ file: race.file, kubelet: sideOverrides(s) }));
    const ran = inProcess((io) => executeDiff({ left: a!, right: b!, html: true, outFile: file }, io));
    expect(ran.out).toContain("first difference");
    const diff = await open(file);
    expect(diff.errors).toEqual([]);
    expect(diff.requests).toEqual([]);
    const titles = await diff.page.locator(".section-title").allTextContents();
    expect(titles).toHaveLength(2);
    expect(titles[0]).toMatch(/^A: kubelet /);
    expect(titles[1]).toMatch(/^B: kubelet /);
    expect(titles[0]).not.toBe(titles[1]);
    expect(await diff.page.locator("#diff-text").textContent()).toContain("first difference at");
    expect(await diff.page.locator(".diff-line").count()).toBe(1);
    // The buggy side's badge is not ok; each run's violation line stays in its own rows.
    const badges = await diff.page.locator(".verdict").evaluateAll((els) => els.map((e) => e.getAttribute("data-ok")));
    expect(badges).toEqual(["false", "true"]);
    const lines = await diff.page.locator(".violation-line").evaluateAll((els) => els.map((e) => ({ run: e.getAttribute("data-run"), y2: Number(e.getAttribute("y2")) })));
    const bTop = await diff.page.locator(".section-title").nth(1).evaluate((e) => Number(e.getAttribute("y")));
    for (const l of lines.filter((x) => x.run === "0")) expect(l.y2).toBeLessThan(bTop);
  });

  it("exports a chrome-trace that parses as Trace Event Format, every span nested within its track", () => {
    const file = join(dir, "r05.trace.json");
    runTo("chrome-trace", file);
    expect(checkTraceEventFormat(readFileSync(file, "utf8"))).toEqual([]);
  });
});

describe.each([
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
])(`the HTML view of ${race.id} at $width x $height`, (viewport) => {
  let page: Page;

  beforeAll(async () => {
    page = await browser.newPage(viewport);
    await page.goto(pathToFileURL(join(dir, "r05.html")).href);
    await page.waitForFunction(() => performance.getEntriesByName("kubelet-sim:drawn").length > 0, undefined, { timeout: HANG_MS });
  });

  it("keeps the timeline on screen: no sideways scroll, and the plot most of the width", async () => {
    const m = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: document.documentElement.clientWidth, chart: document.getElementById("chart")!.getBoundingClientRect().width, label: Number(document.getElementById("plot-clip-rect")!.getAttribute("x")) }));
    expect(m.doc).toBeLessThanOrEqual(m.view);
    expect(m.chart).toBeGreaterThanOrEqual(viewport.width < 700 ? m.view - 2 : m.view * 0.6);
    expect(m.chart - m.label).toBeGreaterThanOrEqual(viewport.width < 700 ? 250 : 700);
  });

  it("says a run whose expectations failed is not ok, and draws the violation's ring", async () => {
    const badge = page.locator(".verdict").first();
    expect(await badge.getAttribute("data-ok")).toBe("false");
    expect(await badge.textContent()).toMatch(/FAIL \d+ of \d+ expectations/);
    const ring = page.locator("rect.ring").first();
    expect(await ring.count()).toBe(1);
    expect(await ring.evaluate((e) => getComputedStyle(e).stroke)).toBe("rgb(214, 47, 47)");
  });

  it("every record of a same-instant stack can be clicked", async () => {
    const stack = page.locator("rect.mark.stack").first();
    const seqs = (await stack.getAttribute("data-seqs"))!.split(",").map(Number);
    expect(seqs.length).toBeGreaterThan(1);
    await stack.click({ force: true });
    const seen: number[] = [];
    for (const seq of seqs) {
      const link = page.locator(`#details ol.same-instant a[data-seq="${seq}"]`);
      if ((await link.count()) > 0) await link.click();
      await expect.poll(() => page.locator("#details pre").textContent(), { timeout: HANG_MS }).toContain(`"seq": ${seq}`);
      seen.push(seq);
    }
    expect(seen).toEqual(seqs);
  });
});
