// The HTML view's page script: the one `npm run build` puts in dist/ (read by a built CLI) is the
// one a run from the sources bundles, so a page is the same bytes either way; and on stdout an
// HTML page or a Trace Event file is the whole output (the human lines go to stderr).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { htmlClientScript } from "../../src/cli/html_client_bundle.ts";
import { cli, ROOT } from "./helpers.ts";

describe("the HTML view's page script", () => {
  it("is the same bundled at build time and from the sources", () => {
    const built = readFileSync(join(ROOT, "dist", "report", "html_client.js"), "utf8");
    expect(htmlClientScript()).toBe(built);
    expect(built.length).toBeGreaterThan(10_000);
  });

  it("html and chrome-trace on stdout are whole documents", () => {
    const html = cli(["run", "scenarios/basics/01-pod-starts.yaml", "--format", "html"]);
    expect(html.code).toBe(0);
    expect(html.out.startsWith("<!doctype html>")).toBe(true);
    expect(html.err).toMatch(/^# replay: /);
    const trace = cli(["run", "scenarios/basics/01-pod-starts.yaml", "--format", "chrome-trace"]);
    expect(JSON.parse(trace.out).traceEvents.length).toBeGreaterThan(0);
  });
});
