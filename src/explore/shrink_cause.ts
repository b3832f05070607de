// What a smaller run must keep of a failure besides its name. An invariant violated or a `never`
// expectation that held is evidence in itself: a smaller run showing it shows the bug. An `eventually`
// or `at` expectation fails for want of something, and a smaller run can fail it for a reason of its
// own: drop the delete, and "gone by 19s" fails because nothing deleted the pod. So for those, a
// shrink step is kept only if the run fails at a comparable point: the same actions on the
// expectation's pod up to its deadline (the timeline steps naming it, whatever their times), and
// the same state seen at the deadline.
import { parseDuration } from "../sim/duration.ts";
import type { Failure } from "./failure.ts";
import { isRecord, rawList, type RawScenario } from "./raw.ts";
import { refersTo, stepPod, type PodName } from "./shrink_scenario.ts";

/** The cause a failure must keep, or null when its name is enough (invariants, `never`, verdicts). */
export interface Cause {
  /** The timeline actions on the pod up to the deadline, each without its time, sorted. */
  actions: string[];
  /** What the checks saw at the deadline ("the pod exists"). */
  seen: string;
}

/** The deadline of an `eventually ... by Nms` or `at Nms ...` expectation; Infinity without one. */
function deadlineMs(f: Failure): number | null {
  if (f.kind !== "expectation") return null;
  if (f.id.startsWith("eventually ")) {
    const by = / by (\d+)ms$/.exec(f.id);
    return by === null ? Number.POSITIVE_INFINITY : Number(by[1]);
  }
  const at = /^at (\d+)ms /.exec(f.id);
  return at === null ? null : Number(at[1]);
}

function podOf(f: Failure): PodName | null {
  if (f.pod === null) return null;
  const [ns, name] = f.pod.includes("/") ? f.pod.split("/", 2) : ["default", f.pod];
  return { namespace: ns!, name: name! };
}

/** The cause of a failure in the raw scenario that showed it. */
export function causeOf(raw: RawScenario, f: Failure): Cause | null {
  const deadline = deadlineMs(f);
  const pod = podOf(f);
  if (deadline === null || pod === null) return null;
  const actions = rawList(raw, "timeline").flatMap((step) => {
    if (!isRecord(step) || !refersTo(stepPod(step), pod)) return [];
    if (typeof step["at"] === "string" && parseDuration(step["at"]) > deadline) return [];
    const { at: _at, ...action } = step;
    return [JSON.stringify(action)];
  });
  return { actions: actions.sort(), seen: seenOf(f) };
}

/** The state an expectation's failure says was seen ("...; seen at 19s: the pod exists" → "the pod exists"). */
function seenOf(f: Failure): string {
  const m = /; seen at [^:]+: (.*)$/s.exec(f.message);
  return m === null ? "" : m[1]!;
}

export function sameCause(a: Cause | null, b: Cause | null): boolean {
  if (a === null || b === null) return a === b;
  return a.seen === b.seen && a.actions.length === b.actions.length && a.actions.every((x, i) => x === b.actions[i]);
}

/** One line for the shrink log and the summary: what the repro keeps failing with. */
export function describeKept(f: Failure, cause: Cause | null): string {
  const what = `${f.kind} ${f.id}${f.pod === null ? "" : ` (${f.pod})`}`;
  if (cause === null) return `kept: ${what}`;
  const steps = cause.actions.length === 0 ? "no step" : cause.actions.map((a) => Object.keys(JSON.parse(a) as object).join("+")).join(", ");
  return `kept: ${what}, after the same steps on its pod (${steps})${cause.seen === "" ? "" : `, seen: ${cause.seen}`}`;
}
