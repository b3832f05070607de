// The HTML view of a cluster run in a real browser (headless Chromium, see chromium.ts): the lanes
// come grouped under a header per node, after the lanes of no node (the apiserver, the scheduler);
// each node's lanes are the goroutines named after it; clicking a node's header folds its lanes
// away and a second click brings them back. A one-node run's page has no node header.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { runRequest } from "../../src/cli/commands/run.ts";
import { executeRun } from "../../src/cli/session.ts";
import { inProcess } from "../cli/helpers.ts";
import { launchChromium, type Browser } from "./chromium.ts";
import { HANG_MS } from "../setup/hang.ts";

const CLUSTER = join(import.meta.dirname, "..", "..", "examples", "cluster", "three-nodes.yaml");
const ONE_NODE = join(import.meta.dirname, "..", "..", "scenarios", "basics", "01-pod-starts.yaml");

let browser: Browser;
let dir: string;

function html(file: string, out: string): string {
  const ran = inProcess((io) => executeRun(runRequest({ file, verbosity: "normal", explain: false, json: false, format: ["html"], out } as Parameters<typeof runRequest>[0]), io).exitCode);
  expect(ran.code).toBe(0);
  return out;
}

async function open(file: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ width: 1400, height: 900 });
  const errors: string[] = [];
  page.on("pageerror", (e) => void errors.push(e.message));
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => performance.getEntriesByName("kubelet-sim:drawn").length > 0, undefined, { timeout: HANG_MS });
  return { page, errors };
}

/** Each goroutine lane's name (from its label's title: "goroutine N name: ...") and y, and each node header's node and y, top to bottom. */
async function rows(page: Page): Promise<{ lanes: { name: string; y: number }[]; nodes: { node: string; y: number; text: string }[] }> {
  const lanes = await page.locator(".lane-label[data-proc]").evaluateAll((els) => els.map((e) => ({ name: (e.querySelector("title")?.textContent ?? "").replace(/^goroutine \d+ /, "").split(": ")[0]!, y: e.getBoundingClientRect().y })));
  const nodes = await page.locator("[data-node-header]").evaluateAll((els) => els.map((e) => ({ node: e.getAttribute("data-node-header")!, y: e.getBoundingClientRect().y, text: e.textContent ?? "" })));
  return { lanes, nodes };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubelet-sim-cluster-view-"));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the HTML view of a three-node run, in Chromium", () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ({ page, errors } = await open(html(CLUSTER, join(dir, "three-nodes.html"))));
  });

  it("has a header per node, in the scenario's order, below the lanes of no node", async () => {
    expect(errors).toEqual([]);
    const { lanes, nodes } = await rows(page);
    expect(nodes.map((n) => n.node)).toEqual(["node-a", "node-b", "node-c"]);
    expect(nodes.map((n) => n.text.split("node ")[1]!.split(/\s/)[0])).toEqual(["node-a", "node-b", "node-c"]);
    const above = lanes.filter((l) => l.y < nodes[0]!.y).map((l) => l.name);
    expect(above.some((n) => n.startsWith("apiserver/"))).toBe(true);
    expect(above.some((n) => n.startsWith("scheduler/"))).toBe(true);
    expect(above.some((n) => /^node-[abc]\//.test(n))).toBe(false);
  });

  it("puts under each header exactly the goroutines named after that node", async () => {
    const { lanes, nodes } = await rows(page);
    nodes.forEach((n, i) => {
      const below = lanes.filter((l) => l.y > n.y && (i + 1 === nodes.length || l.y < nodes[i + 1]!.y)).map((l) => l.name);
      expect(below.length).toBeGreaterThan(3);
      for (const name of below) expect(name.startsWith(`${n.node}/`)).toBe(true);
    });
    const named = lanes.filter((l) => /^node-[abc]\//.test(l.name)).length;
    expect(named).toBeGreaterThan(10);
  });

  it("folds a node's lanes when its header is clicked, and unfolds them on a second click", async () => {
    const before = await rows(page);
    const ofB = before.lanes.filter((l) => l.name.startsWith("node-b/")).length;
    await page.locator('[data-node-header="node-b"]').click();
    await expect.poll(async () => (await rows(page)).lanes.filter((l) => l.name.startsWith("node-b/")).length, { timeout: HANG_MS }).toBe(0);
    const folded = await rows(page);
    expect(folded.nodes.find((n) => n.node === "node-b")!.text).toContain("lanes folded");
    expect(folded.lanes.filter((l) => l.name.startsWith("node-a/")).length).toBe(before.lanes.filter((l) => l.name.startsWith("node-a/")).length);
    await page.locator('[data-node-header="node-b"]').click();
    await expect.poll(async () => (await rows(page)).lanes.filter((l) => l.name.startsWith("node-b/")).length, { timeout: HANG_MS }).toBe(ofB);
  });
});

describe("the HTML view of a one-node run", () => {
  it("has no node header", async () => {
    const { page, errors } = await open(html(ONE_NODE, join(dir, "one.html")));
    expect(errors).toEqual([]);
    expect(await page.locator("[data-node-header]").count()).toBe(0);
    expect(await page.locator(".lane-label[data-proc]").count()).toBeGreaterThan(3);
  });
});
