// Regenerates the pictures of the HTML view the docs show, in headless Chromium (test/browser/chromium.ts):
//   node --import tsx scripts/update-screenshots.ts            # every race page and docs/teaching.md
//   node --import tsx scripts/update-screenshots.ts R05 R08    # only these races
// - docs/races/images/<id>-buggy.png: each race's buggy run, narrowed to its violation ("show");
// - docs/images/teaching-*.png: the views docs/teaching.md explains, on R05 of the catalog;
// - docs/images/teaching-play.png and teaching-play-phone.png: R05's play page at the choice where
//   its shortest win first leaves fifo, the code pane on the option it takes, on a desktop and on a
//   phone (`... scripts/update-screenshots.ts play` for only those).
// Pictures are not compared by any test (fonts differ between machines); review them before committing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { htmlClientScript } from "../src/cli/html_client_bundle.ts";
import { playPage } from "../src/cli/play.ts";
import { levelNotes, resolveLevel } from "../src/cli/play_level.ts";
import { timedLevel } from "../src/play/compile.ts";
import { fifoUntil, playTo } from "../src/play/session.ts";
import { RACES, raceScenario, type RaceEntry } from "../src/races/catalog.ts";
import { screenshotPath } from "../src/races/diagrams.ts";
import { renderHtml, type RunView } from "../src/report/index.ts";
import { ChoiceLog, KernelLog } from "../src/sim/index.ts";
import { simulate } from "../src/simulate.ts";
import { launchChromium, type Browser } from "../test/browser/chromium.ts";

const ROOT = join(import.meta.dirname, "..");
const VIEWPORT = { width: 1280, height: 720 };
const work = mkdtempSync(join(tmpdir(), "kubelet-sim-shots-"));

function view(race: RaceEntry, side: "buggy" | "fixed", label?: string): RunView {
  const kernel = new KernelLog();
  const r = simulate(raceScenario(race, side), { observer: kernel, scenarioFile: race.file });
  return { records: r.records!, kernel, ...(label === undefined ? {} : { label }) };
}

async function open(browser: Browser, views: RunView[], name: string, race: RaceEntry): Promise<Page> {
  const file = join(work, `${name}.html`);
  writeFileSync(file, renderHtml(views, { clientScript: htmlClientScript(), narrowActors: race.actors ?? [] }));
  const page = await browser.newPage(VIEWPORT);
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => performance.getEntriesByName("kubelet-sim:drawn").length > 0);
  return page;
}

async function shoot(page: Page, path: string): Promise<void> {
  await page.mouse.move(VIEWPORT.width / 2, VIEWPORT.height / 2);
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(ROOT, path) });
  process.stdout.write(`wrote ${path}\n`);
}

async function racePicture(browser: Browser, race: RaceEntry): Promise<void> {
  const page = await open(browser, [view(race, "buggy")], race.id, race);
  await page.locator("button[data-show-violation]").first().click();
  await shoot(page, join("docs", "races", screenshotPath(race)));
  await page.close();
}

/** The views docs/teaching.md walks through, on one race. */
async function teachingPictures(browser: Browser, race: RaceEntry): Promise<void> {
  const page = await open(browser, [view(race, "buggy")], `${race.id}-teaching`, race);
  await shoot(page, "docs/images/teaching-full.png");
  await page.locator(".violation-mark").first().click();
  await shoot(page, "docs/images/teaching-violation.png");
  await page.locator("button[data-show-violation]").first().click();
  await page.locator("#details li a[data-seq]").first().click();
  await shoot(page, "docs/images/teaching-record.png");
  await page.close();
  const diff = await open(browser, [view(race, "buggy", race.buggy.label), view(race, "fixed", race.fixed.label)], `${race.id}-diff`, race);
  await diff.locator("#narrow").click();
  await shoot(diff, "docs/images/teaching-diff.png");
  await diff.close();
}

/** The play page of R05 at its win's first choice away from fifo, that option focused (its code in the pane). */
async function playPicture(browser: Browser, viewport: { width: number; height: number }, path: string): Promise<void> {
  const file = join(work, "r05-play.html");
  writeFileSync(file, playPage("r05").html);
  const page = await browser.newPage(viewport);
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => performance.getEntriesByName("kubelet-sim:first-choice").length > 0);
  const notes = levelNotes("R05");
  for (const [id, value] of Object.entries(notes.knobs)) await page.fill(`input[data-knob="${id}"]`, String(value));
  if (Object.keys(notes.knobs).length > 0) await page.click("#set-timing");
  const level = timedLevel(resolveLevel("r05"), notes.knobs).level;
  const tape = ChoiceLog.decode(notes.win).toArray();
  const dev = Math.max(0, tape.findIndex((c) => c.index !== 0));
  const at = playTo(level, tape.slice(0, dev));
  if (at.kind === "pause") {
    await page.fill("#fifo-to-ms", String(at.nowMs));
    await page.click("#fifo-to");
    // fifo's answers up to the deviating choice, then that option focused.
    for (let i = fifoUntil(level, [], at.nowMs).length; i < dev; i++) await page.click("#options button[data-index='0']");
    await page.waitForFunction(() => (document as { body: { dataset: Record<string, string> } }).body.dataset["previewed"] !== "", undefined, { timeout: 120_000 });
    await page.locator(`#options button[data-index='${tape[dev]!.index}']`).focus();
    // Focusing scrolls the option into view; the picture starts at the page's top.
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  await page.screenshot({ path: join(ROOT, path), fullPage: viewport.width < 700 });
  process.stdout.write(`wrote ${path}\n`);
  await page.close();
}

const only = process.argv.slice(2);
const browser = await launchChromium();
try {
  mkdirSync(join(ROOT, "docs", "races", "images"), { recursive: true });
  mkdirSync(join(ROOT, "docs", "images"), { recursive: true });
  for (const race of RACES) if (only.length === 0 || only.includes(race.id)) await racePicture(browser, race);
  const teaching = RACES.find((r) => r.id === "R05");
  if (teaching !== undefined && (only.length === 0 || only.includes("teaching"))) await teachingPictures(browser, teaching);
  if (only.length === 0 || only.includes("play")) {
    await playPicture(browser, { width: 1280, height: 900 }, "docs/images/teaching-play.png");
    await playPicture(browser, { width: 390, height: 844 }, "docs/images/teaching-play-phone.png");
  }
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
