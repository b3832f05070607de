// Headless Chromium for the tests and scripts that look at the HTML view in a real browser: Debian's
// `chromium` package, driven by playwright-core (npm; it downloads no browser). Every launch gets a
// fresh profile directory, removed on close, and flags that keep the browser off the network
// (no component updates, sync or background requests), so a page's own requests are all one sees.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { HANG_MS } from "../setup/hang.ts";

export const CHROMIUM_PATH = process.env.KUBELET_SIM_CHROMIUM ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  /** A new page (tab) with the given viewport. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Whether the system Chromium is installed (CI installs it; see .ci/run). */
export function hasChromium(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** Launches the system Chromium headless with a fresh profile. */
export async function launchChromium(): Promise<Browser> {
  if (!hasChromium()) throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set KUBELET_SIM_CHROMIUM)`);
  const profile = mkdtempSync(join(tmpdir(), "kubelet-sim-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS],
      viewport: { width: 1400, height: 900 },
      timeout: HANG_MS,
    });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
  // Playwright's own waits (navigation, actions, waitFor*) default to 30 s: a bound a loaded host can pass.
  context.setDefaultTimeout(HANG_MS);
  return {
    context,
    async newPage(viewport) {
      const page = await context.newPage();
      if (viewport !== undefined) await page.setViewportSize(viewport);
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
