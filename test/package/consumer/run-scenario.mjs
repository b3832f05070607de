// (a) Plain Node, no TypeScript loader: load a bundled scenario through the library, run it,
// render it, record it and replay the record.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  loadScenarioText, simulate, render, makeRunRecord, formatRunRecord, parseRunRecord, replayRunRecord, formatStrategy, VERSION,
  KernelLog, htmlClientScript,
} from "kubelet-sim";

const root = dirname(createRequire(import.meta.url).resolve("kubelet-sim/package.json"));
const file = join(root, "scenarios", "basics", "01-pod-starts.yaml");
const text = readFileSync(file, "utf8");
const { scenario } = loadScenarioText(text, "01-pod-starts.yaml");
const kernel = new KernelLog();
const result = simulate(scenario, { observer: kernel });
const events = render("events", result.records ?? []);
const page = render("html", result.records ?? [], { clientScript: htmlClientScript() }, kernel);
const record = makeRunRecord(
  { scenarioText: text, scenario: "01-pod-starts.yaml", seed: scenario.seed, strategy: formatStrategy(scenario.strategy), untilMs: scenario.untilMs, replayKey: "kubelet-sim run 01-pod-starts.yaml" },
  result,
);
const back = parseRunRecord(formatRunRecord(record), "record.json").record;
const replayed = replayRunRecord(back, text);
process.stdout.write(JSON.stringify({
  version: VERSION, ok: result.ok, verdict: result.run.verdict, traceHash: result.run.traceHash,
  events: events.includes("Started"), html: page.startsWith("<!doctype html>"), replayedHash: replayed.result.run.traceHash, divergence: replayed.divergence,
}) + "\n");
