// README.md tells a newcomer that the browser tests need Chromium and that, without it, they fail
// with one line saying where they looked and how to install it. That line, from a process whose
// KUBELET_SIM_CHROMIUM names no browser (the tests' own launcher, as a machine without Chromium runs it).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

describe("the browser tests on a machine without Chromium", () => {
  it("fail with one line naming where they looked and how to install it", () => {
    const script = 'import("./test/browser/chromium.ts").then((m) => m.launchChromium()).then(() => process.exit(0), (e) => { process.stderr.write(e.message + "\\n"); process.exit(1); });';
    const r = spawnSync(process.execPath, ["--import", "tsx", "-e", script], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, KUBELET_SIM_CHROMIUM: "/nonexistent/chromium" },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("no Chromium at /nonexistent/chromium: apt-get install -y chromium (or set KUBELET_SIM_CHROMIUM)\n");
  });
});
