// Repro files: what `explore` writes when it finds a failure, in the run-record format that
// `kubelet-sim run --record` writes and `kubelet-sim replay` reads (src/cli/run_record.ts,
// "kubelet-sim/run-record/v1"), so `kubelet-sim replay FILE` replays it exactly. Beside the record
// lies the (shrunk) scenario as YAML, pinned by its sha256; the record also carries a `repro`
// section: the failure, where it was found, what shrinking did, and the scenario text itself, so
// the record alone is enough (loadRepro falls back to it when the YAML file is missing).
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { stringify } from "yaml";
import { z } from "zod";
import { ChoiceLog, parseStrategy } from "../sim/index.ts";
import { loadScenarioText, type Scenario } from "../scenario/index.ts";
import type { InvariantInfo } from "../check/invariants.ts";
import { VERSION } from "../version.ts";
import { RunContext, type ContextRun, type ExploreStrategy } from "./context.ts";
import { sameFailure, type Failure } from "./failure.ts";
import { writeFileAtomic } from "./files.ts";
import { parseYaml } from "../scenario/yaml.ts";
import { deviationCount, type Found, type ShrinkResult } from "./shrink.ts";

import { GUIDED_STRATEGY, labelOnlyStrategy, readTape, recordFormatProblem, RUN_RECORD_FORMAT, textSha256 as sha256, type RunRecord } from "../record/run_record.ts";
import { runRecordSchema } from "../record/run_record_schema.ts";

export { RUN_RECORD_FORMAT };

const failureSchema = z.object({
  kind: z.enum(["invariant", "verdict", "expectation"]),
  id: z.string(),
  message: z.string(),
  atMs: z.number(),
  pod: z.string().nullable(),
  expectIndex: z.number().int().nullable(),
  podSeen: z.boolean().optional(),
});

const reproSectionSchema = z.object({
  command: z.string(),
  failure: failureSchema,
  found: z.object({
    file: z.string(),
    exploreSeed: z.number().int(),
    run: z.number().int(),
    seed: z.number().int(),
    strategy: z.string(),
    choices: z.number().int(),
    deviations: z.number().int(),
    traceHash: z.string(),
  }),
  shrink: z
    .object({ deviations: z.number().int(), choices: z.number().int(), runs: z.number().int(), ms: z.number(), exhausted: z.boolean(), log: z.array(z.string()) })
    .nullable(),
  scenarioText: z.string(),
});

/** A run record with a `repro` section: what was found, and the scenario text itself. */
const reproRecordSchema = runRecordSchema.extend({ repro: reproSectionSchema });

/** What explore found and how shrinking went: a repro file's `repro` section (reproSectionSchema reads it). */
export interface ReproSection {
  command: string;
  failure: Failure;
  found: { file: string; exploreSeed: number; run: number; seed: number; strategy: string; choices: number; deviations: number; traceHash: string };
  shrink: { deviations: number; choices: number; runs: number; ms: number; exhausted: boolean; log: string[] } | null;
  scenarioText: string;
}

/**
 * A run record with a `repro` section. Written out rather than inferred from the schema, so the
 * package's declarations carry no zod; test/types/schema_types.test.ts checks the two agree.
 */
export interface ReproRecord extends RunRecord {
  repro: ReproSection;
}

// The schema parses to exactly ReproRecord: tsc stops here when they drift (kept local, so that
// no zod type reaches this module's declarations).
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Flat<T> = { [K in keyof T]: T[K] };
const _reproAgrees: Same<Flat<z.output<typeof reproRecordSchema>>, Flat<ReproRecord>> = true;
void _reproAgrees;

export interface ReproInput {
  ctx: RunContext;
  found: Found;
  /** The exploration run the failure was first seen in. */
  origin: { index: number; seed: number; choices: number; deviations: number; traceHash: string };
  shrink: ShrinkResult | null;
  outDir: string;
  /**
   * The run exactly as exploration found it (before any shrinking): its swarm draws, the explored
   * invariants' `never:` expectations and its whole choice tape, so `replay` shows that very run.
   * Its name ends in `-as-found`.
   */
  asFound?: boolean;
}

export interface WrittenRepro {
  path: string;
  scenarioPath: string;
  record: ReproRecord;
}


function slug(f: Failure): string {
  if (f.kind === "expectation") return `expectation-${f.expectIndex ?? 0}`;
  return f.id.replace(/[^a-z0-9-]+/gi, "-").toLowerCase();
}

/** Writes the scenario YAML, replays it once more as `replay` will, then writes the record (each atomically). */
export function writeRepro(input: ReproInput): WrittenRepro {
  const { ctx, found, origin, shrink } = input;
  const name = `${String(found.raw["name"] ?? "scenario")}-${slug(found.failure)}-${found.seed}${input.asFound === true ? "-as-found" : ""}`;
  const path = join(input.outDir, `${name}.json`);
  const scenarioFile = `${name}.yaml`;
  const scenarioPath = join(input.outDir, scenarioFile);
  const command = `kubelet-sim replay ${path}`;
  const text = scenarioYaml({ ...found.raw, seed: found.seed }, found.failure, command);
  const scenario = loadScenarioText(text, scenarioFile).scenario;
  const check = ctx.run(scenario, found.seed, { strategy: strict(found.choices), scenarioFile });
  if (!sameFailure(check.failure, found.failure)) {
    throw new Error(`repro ${name}: the written scenario no longer fails as ${found.failure.kind} ${found.failure.id} (a bug in kubelet-sim explore)`);
  }
  const record: ReproRecord = {
    format: RUN_RECORD_FORMAT,
    tool: VERSION,
    scenario: scenarioFile,
    scenarioSha256: sha256(text),
    seed: found.seed,
    strategy: ctx.label,
    untilMs: scenario.untilMs,
    choices: ChoiceLog.from(found.choices).encode(),
    verdict: check.result.run.verdict,
    ok: check.result.ok,
    traceHash: check.result.run.traceHash,
    replayKey: command,
    repro: {
      command,
      failure: check.failure!,
      found: { file: ctx.plan.file, exploreSeed: ctx.plan.seed, run: origin.index, seed: origin.seed, strategy: ctx.label, choices: origin.choices, deviations: origin.deviations, traceHash: origin.traceHash },
      shrink: shrink === null ? null : {
        deviations: deviationCount(found.choices), choices: found.choices.length, runs: shrink.runs, ms: Math.round(shrink.ms), exhausted: shrink.exhausted, log: shrink.log,
      },
      scenarioText: text,
    },
  };
  writeFileAtomic(scenarioPath, text);
  writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`);
  return { path, scenarioPath, record };
}

function strict(choices: Found["choices"]) {
  return { name: "replay" as const, tape: ChoiceLog.from(choices), whenExhausted: "diverge" as const };
}

function scenarioYaml(raw: Record<string, unknown>, f: Failure, command: string): string {
  const head = [
    `# Written by kubelet-sim explore: ${f.kind} ${f.id} at ${f.atMs}ms.`,
    `# The run needs its recorded choices: ${command}`,
  ];
  return `${head.join("\n")}\n${stringify(raw, { lineWidth: 0 })}`;
}

export interface LoadedRepro {
  record: ReproRecord;
  tape: ChoiceLog;
  scenario: Scenario;
  /** The scenario text that ran (from the YAML file beside the record, else the record's copy). */
  scenarioText: string;
}

/** Reads a repro record; throws an Error naming the file and the field when it is not one. */
export function loadRepro(path: string): LoadedRepro {
  const json: unknown = JSON.parse(readFileSync(path, "utf8"));
  const wrongFormat = recordFormatProblem(json, path);
  if (wrongFormat !== null) throw new Error(wrongFormat);
  const parsed = reproRecordSchema.safeParse(json);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(top level)"}: ${i.message}`).join("; ");
    throw new Error(`${path}: not a kubelet-sim repro file: ${why}`);
  }
  const record = parsed.data;
  if (!labelOnlyStrategy(record.strategy)) parseStrategy(record.strategy);
  const beside = join(dirname(path), basename(record.scenario));
  const fromFile = existsSync(beside) ? readFileSync(beside, "utf8") : null;
  const scenarioText = fromFile !== null && sha256(fromFile) === record.scenarioSha256 ? fromFile : record.repro.scenarioText;
  if (sha256(scenarioText) !== record.scenarioSha256) throw new Error(`${path}: the scenario text does not match scenarioSha256`);
  const scenario = loadScenarioText(scenarioText, record.scenario).scenario;
  return { record, tape: readTape(record.choices, path), scenario, scenarioText };
}

export interface ReplayedRepro extends ContextRun {
  /** The identical trace (hash) and the same failure. */
  reproduced: boolean;
}

/** Replays a repro exactly as `kubelet-sim replay` does; extraInvariants for tests' own monitors. */
export function replayRepro(loaded: LoadedRepro, extraInvariants: readonly InvariantInfo[] = []): ReplayedRepro {
  const { record } = loaded;
  const yaml = parseYaml(loaded.scenarioText, record.scenario);
  if (!yaml.ok) throw new Error(`${record.scenario}: not YAML`);
  const guided = GUIDED_STRATEGY.test(record.strategy) ? Number(record.strategy.split(":")[1]) : null;
  const strategy: ExploreStrategy = guided !== null ? { name: "guided", islands: guided } : (parseStrategy(record.strategy) as ExploreStrategy);
  const ctx = new RunContext({ file: record.scenario, raw: yaml.value, strategy, seed: record.seed, invariants: [], swarm: "none", coverage: false, overrideFlags: "" }, extraInvariants);
  const r = ctx.run(loaded.scenario, record.seed, { strategy: { name: "replay", tape: loaded.tape, whenExhausted: "diverge" } });
  const reproduced = r.result.run.traceHash === record.traceHash && sameFailure(r.failure, record.repro.failure);
  return { ...r, reproduced };
}
