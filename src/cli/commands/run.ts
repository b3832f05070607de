// `kubelet-sim run FILE`: simulate a scenario; print the replay key, the outputs, the expectations.
import type { ArgumentsCamelCase, Argv } from "yargs";
import { formatDuration, parseDuration, parseStrategy, type StrategySpec } from "../../sim/index.ts";
import { MAX_UNTIL_MS } from "../../scenario/bounds.ts";
import { UserError } from "../exit.ts";
import { processIo } from "../io.ts";
import { outputRequest, withOutputOptions, type OutputArgs } from "../output_options.ts";
import type { RunRequest } from "../session.ts";
import { hasOverrides, parseFeatureGateFlags, parseVariantFlags, type KubeletOverrides } from "../../scenario/overrides.ts";
import { resolveScenarioArg } from "../scenario_arg.ts";
import { docPath } from "../package_files.ts";
import { semiSpaceFor } from "../young.ts";
import type { CommandFactory } from "./index.ts";

interface Args extends OutputArgs {
  file: string;
  seed?: number;
  strategy?: string;
  until?: string;
  record?: string;
  kubeletVersion?: string;
  variant?: string[];
  printScenario: boolean;
  featureGate?: string[];
  node?: string;
}

export const runCommand: CommandFactory = (ctx) => ({
  command: "run <file>",
  describe: "Simulate a scenario or a Kubernetes manifest: the replay key, a timeline and Events, then whether each expectation held",
  builder: (y: Argv) =>
    withOutputOptions(y.positional("file", { type: "string", describe: `a scenario file, a manifest file (Pod, Deployment, Job...: ${docPath("manifests.md")}), or a bundled scenario's name (basics/01-pod-starts, r05)` }))
      .option("seed", { type: "number", describe: "override the scenario's seed (a whole number, 0 to 2^32-1)" })
      .option("strategy", { type: "string", describe: "override the scenario's strategy: fifo, random, pct, pct:DEPTH[:STEPS], pos" })
      .option("until", { type: "string", describe: "override when the run ends, in virtual time (e.g. 90s, 5m)" })
      .option("record", { type: "string", describe: "also write a run record to FILE, for `kubelet-sim replay`" })
      .option("kubelet-version", { type: "string", describe: 'run under this kubelet instead of the scenario\'s kubelet.version, e.g. "1.22" or "1.22.4"' })
      .option("variant", { type: "string", array: true, describe: "switch a model variant on (NAME) or off (NAME=false), over kubelet.variants; repeatable" })
      .option("feature-gate", { type: "string", array: true, describe: "set a kubelet feature gate (NAME=true or NAME=false), over kubelet.featureGates; repeatable" })
      .option("node", { type: "string", describe: "run as this node (node.name); of a manifest dump whose pods are bound to several nodes, the one whose pods run" })
      .option("print-scenario", { type: "boolean", default: false, describe: "print the scenario as YAML (the one built around a manifest, too) instead of running it" })
      .example("$0 run scenarios/default.yaml", "the timeline and the Events of a pod's life")
      .example("$0 run examples/manifests/nginx-deployment.yaml", "run a manifest: its pod, created at 0s, as its controller would make it")
      .example("$0 run examples/manifests/job.yaml --print-scenario > my-scenario.yaml", "the scenario built around a manifest, to edit")
      .example("$0 run scenarios/default.yaml --format text --format events --verbosity brief --explain", "what npm start shows")
      .example("$0 run x.yaml --seed 7 --strategy pct:3:1000", "another interleaving of the same scenario")
      .example("$0 run x.yaml --node worker-2", "of a `kubectl get pods -A -o yaml` dump from a cluster, the pods of node worker-2")
      .example("$0 run x.yaml --format pods --pod web", "`kubectl get pods -w` for one pod")
      .example("$0 run x.yaml --format jsonl --out trace.jsonl", "stream the trace as JSON lines to a file")
      .example("$0 run x.yaml --record run.json", "keep what `replay` needs to reproduce this run exactly")
      .example("$0 run scenarios/races/r05-pw-kill-pinning.yaml --kubelet-version 1.22", "a race's scenario under the fixed kubelet")
      .epilogue("Exit codes: 0 every expectation held, 1 an expectation or invariant failed, 2 usage or scenario error, 3 the run deadlocked, livelocked, panicked or hit a bound (a bug; printed with the replay key)."),
  handler: async (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    if (argv.printScenario) {
      const { printScenario } = await import("../print_scenario.ts");
      ctx.exitCode = printScenario(argv.file, kubeletOverridesOf(argv).kubelet, processIo(), resolveScenarioArg(argv.file));
      return;
    }
    const request = runRequest(argv);
    // Loaded here, not at the top: the models are needed only when something runs (--help stays fast).
    const { executeRunInterruptible } = await import("../session.ts");
    // A long run goes to a `node` with a larger young generation (young.ts), when it may.
    const respawn = ctx.respawn ?? null;
    const outcome = await executeRunInterruptible(respawn === null ? request : { ...request, elsewhere: semiSpaceFor }, processIo());
    ctx.exitCode = outcome.semiSpaceMb !== undefined && respawn !== null ? await respawn(outcome.semiSpaceMb) : outcome.exitCode;
  },
});

/** The flags as a run request; every malformed value is a UserError (exit 2). */
export function runRequest(argv: Args): RunRequest {
  const readFrom = resolveScenarioArg(argv.file);
  return {
    file: argv.file,
    ...(readFrom === argv.file ? {} : { readFrom }),
    ...(argv.seed === undefined ? {} : { seed: seedOf(argv.seed) }),
    ...(argv.strategy === undefined ? {} : { strategy: strategyOf(argv.strategy) }),
    ...(argv.until === undefined ? {} : { untilMs: untilOf(argv.until) }),
    ...kubeletOverridesOf(argv),
    output: outputRequest(argv),
    recordFile: argv.record ?? null,
  };
}

export function seedOf(seed: number): number {
  if (Number.isInteger(seed) && seed >= 0 && seed <= 2 ** 32 - 1) return seed;
  throw new UserError(`--seed ${String(seed)}: expected a whole number from 0 to ${2 ** 32 - 1}`);
}

export function strategyOf(text: string): StrategySpec {
  try {
    return parseStrategy(text);
  } catch (err) {
    throw new UserError(`--strategy: ${(err as Error).message}`);
  }
}

function untilOf(text: string): number {
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (err) {
    throw new UserError(`--until: ${(err as Error).message}`);
  }
  if (ms > MAX_UNTIL_MS) throw new UserError(`--until ${text}: at most ${formatDuration(MAX_UNTIL_MS)}, the longest run a scenario may ask for`);
  return ms;
}

/** --kubelet-version and --variant as overrides; the version's range is the schema's to check. */
export function kubeletOverridesOf(argv: { kubeletVersion?: string; variant?: string[]; featureGate?: string[]; node?: string }): { kubelet?: KubeletOverrides } {
  const o: KubeletOverrides = {};
  if (argv.node !== undefined) {
    if (!/^[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/.test(argv.node)) throw new UserError(`--node ${argv.node}: expected a node name such as worker-1 (lower-case letters, digits, "-" and ".")`);
    o.nodeName = argv.node;
  }
  if (argv.kubeletVersion !== undefined) {
    if (!/^1\.\d+(\.\d+)?$/.test(argv.kubeletVersion)) {
      throw new UserError(`--kubelet-version ${argv.kubeletVersion}: expected a version like 1.22 or 1.22.4`);
    }
    o.version = argv.kubeletVersion;
  }
  if (argv.variant !== undefined && argv.variant.length > 0) {
    try {
      o.variants = parseVariantFlags(argv.variant);
    } catch (err) {
      throw new UserError((err as Error).message);
    }
  }
  if (argv.featureGate !== undefined && argv.featureGate.length > 0) {
    try {
      o.featureGates = parseFeatureGateFlags(argv.featureGate);
    } catch (err) {
      throw new UserError((err as Error).message);
    }
  }
  return hasOverrides(o) ? { kubelet: o } : {};
}
