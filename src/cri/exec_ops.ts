// Models CRI ExecSync as the kubelet uses it (exec probes, exec lifecycle hooks), plus the network
// requests HTTP/TCP/gRPC probes and HTTP hooks make, all answered by the container's program.
//
// Simplified: a real exec runs a command; here the caller says what the exec is for (a probe of a
// type, a hook), and the program's script answers for that purpose. Network probes and HTTP hooks
// do not go through the CRI upstream (the prober dials the pod IP); they are served here because
// the container's program is the one that answers, and they are traced as "Probe"/"HTTPHook".
import { callOp, type Op } from "../sim/index.ts";
import type { ExecSyncResponse } from "./api.ts";
import type { RuntimeCore } from "./core.ts";
import { CriError, deadlineExceeded } from "./errors.ts";
import { containerNotFound } from "./container_ops.ts";
import { probeAnswerAt, type HookType, type ProbeType } from "./program.ts";
import type { ContainerRecord } from "./store.ts";

/** What an exec or network request is for; null is a plain exec (exit 0 at once). */
export type ExecPurpose = { probe: ProbeType } | { hook: HookType } | null;

/** The program's answer: how long it takes and how it ends; `hang` never answers on its own. */
interface Answer {
  durationMs: number;
  hang: boolean;
  exitCode: number;
  output: string;
}

function answerFor(c: ContainerRecord, purpose: ExecPurpose, nowMs: number): Answer {
  if (purpose === null) return { durationMs: 0, hang: false, exitCode: 0, output: "" };
  if ("hook" in purpose) {
    const script = c.program.hooks[purpose.hook];
    if (script === undefined) return { durationMs: 0, hang: false, exitCode: 0, output: "" };
    return { durationMs: script.durationMs, hang: false, exitCode: script.error === null ? 0 : 1, output: script.error ?? "" };
  }
  const script = c.program.probes[purpose.probe];
  const answer = probeAnswerAt(script, nowMs - c.startedAtMs, c.sigtermAtMs === null ? null : nowMs - c.sigtermAtMs);
  const durationMs = script?.durationMs ?? 1;
  if (answer === "timeout") return { durationMs, hang: true, exitCode: 0, output: "" };
  return { durationMs, hang: false, exitCode: answer === "success" ? 0 : 1, output: answer === "success" ? "" : `${purpose.probe} probe failed` };
}

function purposeFields(purpose: ExecPurpose): Record<string, unknown> {
  if (purpose === null) return {};
  return "hook" in purpose ? { hook: purpose.hook } : { probe: purpose.probe };
}

/**
 * ExecSync: runs in a RUNNING container for the answer's duration. With timeoutSeconds > 0 an
 * answer that takes longer (or never comes) fails with DeadlineExceeded at the timeout; with 0
 * (the kubelet's hooks) it may run until the kubelet's request timeout.
 */
export function ExecSync(rt: RuntimeCore, id: string, cmd: readonly string[], timeoutSeconds: number, purpose: ExecPurpose = null): Op | CriError {
  return rt.call<ExecSyncResponse>(
    rt.containerSite("ExecSync", id),
    id,
    (call) => {
      const c = rt.store.containers.get(id);
      if (c === undefined) return containerNotFound(id);
      if (c.state !== "CONTAINER_RUNNING") return new CriError("Unknown", `container "${id}" is in ${c.state} state`);
      const a = answerFor(c, purpose, rt.nowMs);
      const limitMs = timeoutSeconds > 0 ? timeoutSeconds * 1000 : rt.options.requestTimeoutMs;
      if (a.hang || a.durationMs > limitMs) {
        return call.after(limitMs, "cri ExecSync (no answer)", () => {
          if (timeoutSeconds <= 0) return deadlineExceeded();
          return new CriError("DeadlineExceeded", `failed to exec in container: timeout ${timeoutSeconds}s exceeded: context deadline exceeded`);
        });
      }
      return call.after(a.durationMs, "cri ExecSync", () => (
        { stdout: a.exitCode === 0 ? a.output : "", stderr: a.exitCode === 0 ? "" : a.output, exitCode: a.exitCode }
      ));
    },
    (r) => ({ ...purposeFields(purpose), cmd: cmd.join(" "), exitCode: r.exitCode }),
  );
}

/** The outcome of a network request to a container (an HTTP/TCP/gRPC probe, an HTTP hook). */
export interface NetworkOutcome {
  result: "success" | "failure" | "timeout";
  output: string;
  tookMs: number;
}

/**
 * A network request to the container: refused at once when it is not running or its sandbox lost
 * its network; otherwise the program's answer, cut at timeoutMs. Not a CRI call: no latency, no
 * faults, traced as kind "Probe" or "HTTPHook".
 */
export function networkRequest(rt: RuntimeCore, id: string, purpose: Exclude<ExecPurpose, null>, timeoutMs: number): Op | NetworkOutcome {
  const startMs = rt.nowMs;
  const c = rt.store.containers.get(id);
  const sandbox = c === undefined ? undefined : rt.store.sandboxes.get(c.sandboxId);
  if (c === undefined || c.state !== "CONTAINER_RUNNING" || sandbox === undefined || (!sandbox.hostNetwork && sandbox.ip === "")) {
    // Refused at once: no time passes, and the caller goes on in the same step.
    return endRequest(rt, c, id, purpose, startMs, "failure", "connect: connection refused");
  }
  const a = answerFor(c, purpose, rt.nowMs);
  if (a.hang || a.durationMs > timeoutMs) {
    return callOp(timeoutMs, "network request (no answer)", () => endRequest(rt, c, id, purpose, startMs, "timeout", `timeout after ${timeoutMs}ms`));
  }
  return callOp(a.durationMs, "network request", () => endRequest(rt, c, id, purpose, startMs, a.exitCode === 0 ? "success" : "failure", a.output));
}

/** A network request's outcome, with its one trace record ("Probe" or "HTTPHook"). */
function endRequest(
  rt: RuntimeCore, c: ContainerRecord | undefined, id: string, purpose: Exclude<ExecPurpose, null>, startMs: number,
  result: NetworkOutcome["result"], output: string,
): NetworkOutcome {
  const tookMs = rt.nowMs - startMs;
  const hook = "hook" in purpose;
  if (rt.sim.traces(hook ? "HTTPHook" : "Probe")) {
    const pod = c?.podKey ?? null;
    const container = c?.name ?? null;
    rt.emit(hook ? "HTTPHook" : "Probe", hook
      ? { pod, container, id, hook: purpose.hook, result, tookMs }
      : { pod, container, id, probe: purpose.probe, result, tookMs });
  }
  return { result, output, tookMs };
}
