// The play page in a real browser (headless Chromium, see chromium.ts): it loads offline with no
// error; each option says what its goroutine's step does and where it stands in the model's code
// (the code pane shows the yield it stands at, the upstream file at the release tag); undo shows
// exactly the state shown before; "let fifo run" ends where a fifo run in Node ends; a level won by
// timing is won through the knobs, and its export replays to the same trace hash; three levels won
// by order are won by choosing goroutines only, two at 1440x900 and one at 390x844, where keyboard
// focus stays in the option list after each choice and the live region announces the win; the URL
// keeps the level, the timing and the choices across a reload.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { levelLines, playPage } from "../../src/cli/play.ts";
import { levelNotes, resolveLevel } from "../../src/cli/play_level.ts";
import { ChoiceLog } from "../../src/sim/index.ts";
import { simulate } from "../../src/simulate.ts";
import { playTo } from "../../src/play/session.ts";
import { parseRunRecord } from "../../src/record/run_record.ts";
import { cli } from "../cli/helpers.ts";
import { launchChromium, type Browser } from "./chromium.ts";
import { HANG_MS } from "../setup/hang.ts";

// The page's globals, for the functions evaluated in the browser (this project's tsconfig has no DOM types).
declare const document: { body: { dataset: Record<string, string | undefined> }; documentElement: { scrollWidth: number }; activeElement: { closest(sel: string): unknown } | null };
declare const location: { hash: string };

const LEVEL = "R05";
/** A level won by timing, for the knobs' test. */
const TIMING_LEVEL = levelLines().find((l) => l.mode === "timing" && l.timingChanges === 1 && !("seed" in levelNotes(l.race).knobs))!.race;
/** Three levels won by order, the shortest wins first. */
const ORDER_LEVELS = levelLines().filter((l) => l.mode === "order").sort((a, b) => a.deviations - b.deviations || a.race.localeCompare(b.race)).slice(0, 3).map((l) => l.race);

let browser: Browser;
let dir: string;
let file: string;
let page: Page;
const errors: string[] = [];
const requests: string[] = [];
let firstChoiceMs = -1;
let pageBytes = 0;

const status = (p: Page = page) => p.locator("#status");
const state = async () => await page.locator("#state").innerText();

async function pauseIndex(p: Page = page): Promise<number | null> {
  const v = await p.locator("#choice").getAttribute("data-choice-index");
  return v === null || v === "" ? null : Number(v);
}

async function openPage(viewport: { width: number; height: number }, hash = ""): Promise<Page> {
  const p = await browser.newPage(viewport);
  const url = pathToFileURL(file).href;
  p.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  p.on("pageerror", (e) => void errors.push(e.message));
  p.on("request", (r) => void (!r.url().startsWith(url) && requests.push(r.url())));
  await p.goto(url + hash);
  await p.waitForFunction(() => performance.getEntriesByName("kubelet-sim:first-choice").length > 0, undefined, { timeout: HANG_MS });
  return p;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubelet-sim-play-"));
  const { html } = playPage(LEVEL.toLowerCase());
  pageBytes = Buffer.byteLength(html);
  file = join(dir, "r05-play.html");
  writeFileSync(file, html);
  browser = await launchChromium();
  page = await openPage({ width: 1440, height: 900 });
  firstChoiceMs = await page.evaluate(() => performance.getEntriesByName("kubelet-sim:first-choice")[0]!.startTime);
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe(`the play page of ${LEVEL} in Chromium`, () => {
  it("loads with no console error and no network request, and stops at the first choice", async () => {
    console.log(`play page of ${LEVEL}: ${pageBytes} bytes, first choice shown ${Math.round(firstChoiceMs)}ms after navigation`);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(await pauseIndex()).toBe(0);
    expect(await page.locator("#options button").count()).toBeGreaterThan(1);
    expect(await state()).toContain("pod workers");
    // Every input has a name a screen reader reads: a label around it, or its own aria-label.
    const unnamed = await page.locator("input, select, textarea").evaluateAll((els) => els.filter((e) => e.closest("label") === null && !e.getAttribute("aria-label")).map((e) => e.id || e.outerHTML));
    expect(unnamed).toEqual([]);
  });

  it("says what each option's step does and shows, in the code pane, the model's line its goroutine stands at", async () => {
    await page.fill("#fifo-to-ms", "5000");
    await page.click("#fifo-to");
    await page.waitForFunction(() => document.body.dataset["previewed"] !== "", undefined, { timeout: HANG_MS });
    const version = resolveLevel(LEVEL).version;
    expect(await page.locator(`.option .where a[href^="https://github.com/kubernetes/kubernetes/blob/v${version}.0/pkg/kubelet/"]`).count()).toBeGreaterThan(0);
    await page.locator("#options button").nth(1).focus();
    expect(await page.locator("#code").getAttribute("data-site")).toMatch(/^src\/\S+\.ts:\d+$/);
    const standsAt = await page.locator("#code .line.at").innerText();
    const starting = (await page.locator("#code .fn").innerText()).includes("has not run yet");
    // A goroutine that has not run yet starts at its function's first line; any other stands at a yield.
    expect(standsAt).toMatch(starting ? /\*\s*\w*\s*\(/ : /yield/);
    expect(await page.locator("#options button").nth(1).innerText()).toMatch(/; /);
  });

  it("undo returns to the previous state exactly", async () => {
    await page.click("#restart");
    const before = { state: await state(), status: await status().innerText(), options: await page.locator("#options").innerText() };
    await page.click("#options button[data-index='1']");
    expect(await pauseIndex()).toBe(1);
    await page.click("#undo");
    expect(await pauseIndex()).toBe(0);
    await page.waitForFunction(() => document.body.dataset["previewed"] !== "", undefined, { timeout: HANG_MS });
    const after = { state: await state(), status: await status().innerText(), options: await page.locator("#options").innerText() };
    expect(after.state).toEqual(before.state);
    expect(after.status).toEqual(before.status);
  });

  it("'let fifo run' reaches the end `kubelet-sim run` reaches under fifo", async () => {
    await page.click("#restart");
    await page.click("#fifo-run");
    const fifo = simulate(resolveLevel(LEVEL).scenario, { strategy: { name: "fifo" } });
    const ran = cli(["run", resolveLevel(LEVEL).scenarioFile, "--verbosity", "brief"]);
    expect(ran.out).toContain(`after ${fifo.run.events} events; trace ${fifo.run.traceHash}`);
    expect(await status().getAttribute("data-state")).toBe("end");
    expect(await status().getAttribute("data-trace-hash")).toBe(fifo.run.traceHash);
    expect(await status().innerText()).toContain(`${fifo.run.verdict} at t=${fifo.run.endMs}ms`);
    expect(await page.locator("#outcome").getAttribute("class")).toBe("ended");
  });

  it(`a level won by timing (${TIMING_LEVEL}): its win, typed into the knobs, breaks the invariant, and its export replays to the same trace hash`, async () => {
    await page.selectOption("#level-picker", TIMING_LEVEL);
    const notes = levelNotes(TIMING_LEVEL);
    await setTiming(TIMING_LEVEL, notes.knobs);
    await page.click("#fifo-run");
    expect(await status().getAttribute("data-state")).toBe("broken");
    expect(await status().innerText()).toContain(`You won with 1 timing change and 0 choices deviated from fifo`);
    await page.click("#export-button");
    const text = await page.locator("#export-text").inputValue();
    const { record } = parseRunRecord(text, "export");
    const exported = join(dir, "win.json");
    writeFileSync(exported, text);
    const replayed = cli(["replay", exported, "--verbosity", "brief"]);
    expect(replayed.err).toBe("");
    expect(replayed.out).toContain(`# reproduced: the identical trace, ${record.traceHash}`);
    expect(replayed.code).toBe(1);
  });

  it("the URL keeps the level, the timing and the choices across a reload", async () => {
    const notes = levelNotes(TIMING_LEVEL);
    await page.click("#restart");
    await page.click("#options button[data-index='1']");
    const hash = await page.evaluate(() => location.hash);
    expect(hash).toContain(`level=${TIMING_LEVEL}`);
    const again = await openPage({ width: 1440, height: 900 }, hash);
    expect(await again.locator("#level-title").innerText()).toContain(`Play ${TIMING_LEVEL}`);
    expect(await pauseIndex(again)).toBe(1);
    for (const [id, v] of Object.entries(notes.knobs)) expect(await again.locator(`input[data-knob="${id}"]`).inputValue()).toBe(String(v));
    await again.close();
  });

  it("'fifo to t=' skips to the first choice at or after that virtual time; a timing out of range is refused", async () => {
    await page.selectOption("#level-picker", "R01");
    await page.fill("#fifo-to-ms", "9000");
    await page.click("#fifo-to");
    expect(await status().innerText()).toMatch(/^t=(9\d{3}|\d{5,})ms: your choice #\d+, 0 choices deviated/);
    await page.fill("input[data-knob='latency.PullImage']", "99999");
    await page.click("#set-timing");
    expect(await page.locator("#timing-error").innerText()).toMatch(/99999ms is outside \d+ms to \d+ms/);
    expect(errors).toEqual([]);
  });
});

describe("levels won by order, choosing goroutines only", () => {
  it.each(ORDER_LEVELS.slice(0, 2))("%s at 1440x900: focus stays in the options after each choice, and the live region announces the win", async (id) => {
    await winByOrder(page, id);
  });

  it.each(ORDER_LEVELS.slice(2, 3))("%s at 390x844: the page fits the phone, focus stays in the options, the live region announces the win", async (id) => {
    const phone = await openPage({ width: 390, height: 844 });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await winByOrder(phone, id);
    await phone.close();
  });

  it("there are three of them", () => {
    expect(ORDER_LEVELS).toHaveLength(3);
  });
});

/** Picks the level, answers fifo up to its win's first deviation, then clicks every option of the win up to its last, then lets fifo run. */
async function winByOrder(p: Page, id: string): Promise<void> {
  await p.selectOption("#level-picker", id);
  const tape = ChoiceLog.decode(levelNotes(id).win).toArray();
  const devs = tape.flatMap((c, i) => (c.index === 0 ? [] : [i]));
  const first = playTo(resolveLevel(id), tape.slice(0, devs[0]!));
  if (first.kind !== "pause") throw new Error(`${id}: its win's first deviation is past the end`);
  await p.fill("#fifo-to-ms", String(first.nowMs));
  await p.click("#fifo-to");
  for (let i = (await pauseIndex(p))!; i <= devs.at(-1)!; i++) {
    expect(await pauseIndex(p)).toBe(i);
    await p.click(`#options button[data-index='${tape[i]!.index}']`);
    expect(await p.evaluate(() => document.activeElement?.closest("#options") !== null)).toBe(true);
  }
  await p.click("#fifo-run");
  expect(await status(p).getAttribute("data-state")).toBe("broken");
  expect(await status(p).innerText()).toMatch(/^You won with \d+ choices? deviated from fifo\.$/);
  expect(await p.locator("#outcome.won h3").innerText()).toContain(`You won: ${resolveLevel(id).invariant} broke`);
  expect(await p.locator("#live").textContent()).toMatch(/^You won: \S+ broke at t=\d+\.\d{3}s with \d+ choices? deviated from fifo\.$/);
  expect(await p.locator("#why a, #why code").first().innerText()).toBe(`docs/races/${id.toLowerCase()}.md`);
}

/** Types the knobs' values (every other knob back to its written value) and sets the timing. */
async function setTiming(id: string, knobs: Record<string, number>): Promise<void> {
  for (const input of await page.locator("input[data-knob]").all()) {
    const knob = (await input.getAttribute("data-knob"))!;
    const written = resolveLevel(id).knobs.find((k) => k.id === knob)!.writtenMs;
    await input.fill(String(knobs[knob] ?? written ?? ""));
  }
  await page.click("#set-timing");
  expect(await pauseIndex()).toBe(0);
}
