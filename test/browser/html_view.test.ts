// The HTML view in a real browser (headless Chromium, see chromium.ts): the page of a race's buggy
// run loads offline with no error, draws a lane per goroutine, shows the violation's invariant
// when its mark is clicked, narrows to the goroutines involved; the diff page shows both kubelets;
// the chrome-trace export made by the CLI is sound Trace Event Format. The race is R05 of the
// catalog, whatever its scenario and sides say today.
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

describe(`the HTML view of ${race.id} (${race.buggy.label}) in Chromium`, () => {
  let html: string;
  let view: Loaded;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kubelet-sim-browser-"));
    html = join(dir, "r05.html");
    runTo("html", html);
    browser = await launchChromium();
    view = await open(html);
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
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
  });

  it("exports a chrome-trace that parses as Trace Event Format, every span nested within its track", () => {
    const file = join(dir, "r05.trace.json");
    runTo("chrome-trace", file);
    expect(checkTraceEventFormat(readFileSync(file, "utf8"))).toEqual([]);
  });
});
