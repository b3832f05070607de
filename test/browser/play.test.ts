// The play page of R05 in a real browser (headless Chromium, see chromium.ts): it loads offline with
// no error; the level's recorded win, its timing typed into the knobs and its choices clicked,
// breaks the invariant; so does a win by order (choices clicked one by one at a timing where fifo
// keeps the invariant); each Export replays with `kubelet-sim replay` to the same trace hash; undo
// shows exactly the state shown before; "let fifo run" ends where a fifo run in Node ends; the
// level picker compiles another race's level in the page.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { playPage } from "../../src/cli/play.ts";
import { levelNotes, resolveLevel } from "../../src/cli/play_level.ts";
import { ChoiceLog, type Choice } from "../../src/sim/index.ts";
import { simulate } from "../../src/simulate.ts";
import { parseRunRecord } from "../../src/record/run_record.ts";
import { cli } from "../cli/helpers.ts";
import { launchChromium, type Browser } from "./chromium.ts";
import { HANG_MS } from "../setup/hang.ts";

const LEVEL = "R05";

let browser: Browser;
let dir: string;
let page: Page;
const errors: string[] = [];
const requests: string[] = [];
let firstChoiceMs = -1;
let pageBytes = 0;

const status = () => page.locator("#status");
const state = async () => (await page.locator("#state").innerText());

async function pauseIndex(): Promise<number | null> {
  const v = await page.locator("#choice").getAttribute("data-choice-index");
  return v === null || v === "" ? null : Number(v);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubelet-sim-play-"));
  const { html } = playPage(LEVEL.toLowerCase());
  pageBytes = Buffer.byteLength(html);
  const file = join(dir, "r05-play.html");
  writeFileSync(file, html);
  browser = await launchChromium();
  page = await browser.newPage({ width: 1400, height: 900 });
  const url = pathToFileURL(file).href;
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  page.on("pageerror", (e) => void errors.push(e.message));
  page.on("request", (r) => void (r.url() !== url && requests.push(r.url())));
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName("kubelet-sim:first-choice").length > 0, undefined, { timeout: HANG_MS });
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
  });

  it("undo returns to the previous state exactly", async () => {
    await page.click("#restart");
    const before = { state: await state(), status: await status().innerText(), options: await page.locator("#options").innerText() };
    await page.click("#options button[data-index='1']");
    expect(await pauseIndex()).toBe(1);
    await page.click("#undo");
    expect(await pauseIndex()).toBe(0);
    expect({ state: await state(), status: await status().innerText(), options: await page.locator("#options").innerText() }).toEqual(before);
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
  });

  it("the level's recorded win, entered through the UI, breaks the invariant, and its export replays to the same trace hash", async () => {
    const notes = levelNotes(LEVEL);
    const { record } = await playWin(notes.knobs, ChoiceLog.decode(notes.win).toArray());
    expect(await status().innerText()).toContain(`You won with ${Object.keys(notes.knobs).length} timing change`);
    expect(record.scenarioText).toContain(`${notes.knobs["step@5000"]}ms, delete: web`);
  });

  it("a win by order: at a timing where fifo keeps the invariant, six choices clicked one by one break it", async () => {
    await setTiming(ORDER_WIN.knobs);
    await page.click("#fifo-run");
    expect(await status().getAttribute("data-state")).toBe("end");
    const { record } = await playWin(ORDER_WIN.knobs, ChoiceLog.decode(ORDER_WIN.win).toArray());
    expect(record.strategy).toBe("play");
    expect(await status().innerText()).toContain("You won with 2 timing changes and 6 choices deviated from fifo");
  });

  it("'fifo to t=' skips to the first choice at or after that virtual time", async () => {
    await setTiming({});
    await page.fill("#fifo-to-ms", "9000");
    await page.click("#fifo-to");
    expect(await status().innerText()).toMatch(/^t=(9\d{3}|\d{5,})ms: your choice #\d+, 0 choices deviated/);
  });

  it("the level picker compiles another race's level in the page and stops at its first choice", async () => {
    await page.selectOption("#level-picker", "R01");
    expect(await page.locator("#level-title").innerText()).toContain("Play R01");
    expect(await pauseIndex()).toBe(0);
    expect(await page.locator("input[data-knob='latency.PullImage']").inputValue()).toBe("8000");
    await page.fill("input[data-knob='latency.PullImage']", "99999");
    await page.click("#set-timing");
    expect(await page.locator("#timing-error").innerText()).toContain("99999ms is outside 1000ms to 11000ms");
    expect(errors).toEqual([]);
    await page.selectOption("#level-picker", LEVEL);
  });
});

/**
 * A win found at R05's timing with the delete moved onto the eviction's instant (9s) and another
 * seed: fifo keeps the invariant there, and these choices (6 away from fifo) break it. It was the
 * level's win before the level had knobs (scripts/update-play-levels.ts, phase 2).
 */
const ORDER_WIN = {
  knobs: { "step@5000": 9000, seed: 3372472412 },
  win: "p0/11 p0/10 p0/9 p0/8 p0/7 p0/6 p0/5 p0/4 p0/3 p0/2*2 p1/2 p0/2*3 p0/3 p0/2 p0/3*2 p0/2*15 p1/2 p0/3 p1/2 p0/2 p0/3 p0/2*8 p0/4 p2/3 p3/4 p4/5 p0/5 p0/6 p0/5 p0/4 p0/3 p0/2*3 p0/3 p0/2 p0/3 p0/2 p0/3 p0/2*12 p0/3 p0/2*13 p0/3 p0/2*13 p0/3 p0/2 p0/3 p0/2*8 p0/3 p0/2 p0/4*2 p0/3 p0/2*15",
};

/** Types the knobs' values (every other knob back to its written value) and sets the timing. */
async function setTiming(knobs: Record<string, number>): Promise<void> {
  for (const input of await page.locator("input[data-knob]").all()) {
    const id = (await input.getAttribute("data-knob"))!;
    const written = resolveLevel(LEVEL).knobs.find((k) => k.id === id)!.writtenMs;
    await input.fill(String(knobs[id] ?? written ?? ""));
  }
  await page.click("#set-timing");
  expect(await pauseIndex()).toBe(0);
}

/** Sets the timing, clicks the tape's choices up to its last deviation, lets fifo run, exports and replays the export. */
async function playWin(knobs: Record<string, number>, win: Choice[]) {
  await setTiming(knobs);
  const last = win.map((c, i) => (c.index === 0 ? -1 : i)).reduce((a, b) => Math.max(a, b), -1);
  for (let i = 0; i <= last; i++) {
    expect(await pauseIndex()).toBe(i);
    await page.click(`#options button[data-index='${win[i]!.index}']`);
  }
  const stepMs = await page.locator("body").getAttribute("data-run-ms");
  console.log(`re-running ${LEVEL} from the start to choice #${last + 1}: ${stepMs}ms`);
  await page.click("#fifo-run");
  expect(await status().getAttribute("data-state")).toBe("broken");
  await page.click("#export-button");
  const text = await page.locator("#export-text").inputValue();
  const { record } = parseRunRecord(text, "export");
  expect(record.choices).toBe(ChoiceLog.from(win).encode());
  const file = join(dir, "r05-play.json");
  writeFileSync(file, text);
  const replayed = cli(["replay", file, "--verbosity", "brief"]);
  expect(replayed.err).toBe("");
  expect(replayed.out).toContain(`# reproduced: the identical trace, ${record.traceHash}`);
  expect(replayed.code).toBe(1);
  return { record };
}
