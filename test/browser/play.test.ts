// The play page of R05 in a real browser (headless Chromium, see chromium.ts): it loads offline with
// no error; the level's recorded win, entered choice by choice through the page's buttons, breaks
// the invariant; its Export replays with `kubelet-sim replay` to the same trace hash; undo shows
// exactly the state shown before; "let fifo run" ends where a fifo run in Node ends.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { playPage } from "../../src/cli/play.ts";
import { levelNotes, resolveLevel } from "../../src/cli/play_level.ts";
import { ChoiceLog } from "../../src/sim/index.ts";
import { simulate } from "../../src/simulate.ts";
import { parseRunRecord } from "../../src/record/run_record.ts";
import { cli } from "../cli/helpers.ts";
import { launchChromium, type Browser } from "./chromium.ts";

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
  await page.waitForFunction(() => performance.getEntriesByName("kubelet-sim:first-choice").length > 0, undefined, { timeout: 30_000 });
  firstChoiceMs = await page.evaluate(() => performance.getEntriesByName("kubelet-sim:first-choice")[0]!.startTime);
}, 90_000);

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
    const win = ChoiceLog.decode(levelNotes(LEVEL).win).toArray();
    const last = win.map((c, i) => (c.index === 0 ? -1 : i)).reduce((a, b) => Math.max(a, b), -1);
    await page.click("#restart");
    for (let i = 0; i <= last; i++) {
      expect(await pauseIndex()).toBe(i);
      await page.click(`#options button[data-index='${win[i]!.index}']`);
    }
    const stepMs = await page.locator("body").getAttribute("data-run-ms");
    console.log(`re-running ${LEVEL} from the start to choice #${last + 1}: ${stepMs}ms`);
    await page.click("#fifo-run");
    expect(await status().getAttribute("data-state")).toBe("broken");
    expect(await status().innerText()).toContain(`You won with ${levelNotes(LEVEL).deviations} choices deviated from fifo`);
    await page.click("#export-button");
    const text = await page.locator("#export-text").inputValue();
    const { record } = parseRunRecord(text, "export");
    expect(record.strategy).toBe("play");
    expect(record.choices).toBe(ChoiceLog.from(win).encode());
    const file = join(dir, "r05-play.json");
    writeFileSync(file, text);
    const replayed = cli(["replay", file, "--verbosity", "brief"]);
    expect(replayed.err).toBe("");
    expect(replayed.out).toContain(`# reproduced: the identical trace, ${record.traceHash}`);
    expect(replayed.code).toBe(1);
  });
});
