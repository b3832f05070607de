// Models pkg/kubelet/kuberuntime/kuberuntime_termination_order.go (terminationOrdering, newTerminationOrdering, waitForTurn, containerTerminated), v1.29+ (#120620), with and without #125935.
//
// Sidecars (restartable init containers) stop after every regular container and after every
// sidecar that starts later than they do; killContainer waits for its turn within the grace period.
// The channels are kernel channels, so a sidecar's wait is a select the scheduler records.
// Ported from the newest text read (running containers given by name, not-running containers
// pre-closed, containerTerminated under the lock and idempotent); the lock is not modelled, as
// containerTerminated never yields. Simplified: the timer is created only when there is something
// to wait for, and stopped when the wait ends (Go leaves it to fire unread); neither is observable.
import { recvCase, select, type Chan, type Proc, type Sim } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import { isRestartableInitContainer } from "../../k8s/podutil.ts";

/**
 * terminationOrdering enforces a termination ordering for sidecar containers: it sets up the
 * dependencies between them and lets pod termination wait until the grace period expires or every
 * container a sidecar depends on has terminated. (Capitalised as a TS class, as podActions is PodActions.)
 */
export class TerminationOrdering {
  /** Container name → a channel that, once closed, says that container was terminated. */
  readonly terminated = new Map<string, Chan<void>>();
  /** Container name → the channels the container must wait on to keep the termination order. */
  readonly prereqs = new Map<string, Chan<void>[]>();

  constructor(private readonly sim: Sim) {}

  /**
   * waitForTurn waits until it is time for the named container to begin terminating, up to
   * gracePeriod seconds. If gracePeriod <= 0 there is no wait. Returns the seconds waited (Go's
   * time.Since(start).Seconds(), a float; the caller truncates).
   */
  *waitForTurn(name: string, gracePeriod: number): Proc<number> {
    // If there is no grace period, we don't wait.
    if (gracePeriod <= 0) return 0;
    const prereqs = this.prereqs.get(name) ?? [];
    if (prereqs.length === 0) return 0;
    const startMs = this.sim.nowMs;
    const remainingGrace = this.sim.newTimer(`terminationOrdering grace ${name}`, gracePeriod * 1000);
    try {
      for (const c of prereqs) {
        const fired = yield* select([recvCase(c), recvCase(remainingGrace.C)]);
        // Grace period expired, so immediately exit.
        if (fired.index === 1) break;
      }
    } finally {
      remainingGrace.stop();
    }
    return (this.sim.nowMs - startMs) / 1000;
  }

  /** containerTerminated should be called once the named container has exited; a second call does nothing. */
  containerTerminated(name: string): void {
    const ch = this.terminated.get(name);
    if (ch === undefined) return;
    ch.close();
    this.terminated.delete(name);
  }
}

/** The releases' orderings: none (before 1.29), waiting for sidecars that never started (1.29 to #125935), or not. */
export type TerminationOrderingEra = "none" | "waitsForNotStarted" | "ignoresNotStarted";

/**
 * newTerminationOrdering constructs a terminationOrdering from the pod spec and the currently
 * running containers. Before #125935 (1.29.0-1.29.7, 1.30.0-1.30.3) only the regular containers'
 * channels were pre-closed when not running: a sidecar that never started held back every earlier
 * sidecar until the grace period ran out (issue #125880, race R23). `preCloseNotRunningSidecars`
 * says whether the release has the fix.
 */
export function newTerminationOrdering(sim: Sim, pod: Pod, runningContainerNames: readonly string[], preCloseNotRunningSidecars = true): TerminationOrdering {
  const to = new TerminationOrdering(sim);
  const runningContainers = new Set(runningContainerNames);
  const channel = (name: string, preClose: boolean): Chan<void> => {
    const ch = sim.chan<void>(`terminated ${pod.metadata.name}/${name}`, 0);
    to.terminated.set(name, ch);
    // If it's not a running container, pre-close the channel so nothing waits on it.
    if (preClose && !runningContainers.has(name)) ch.close();
    return ch;
  };
  // Sidecar containers need to wait on main containers, so create a channel per main container for them to wait on.
  const mainContainerChannels = pod.spec.containers.map((c) => channel(c.name, true));
  const inits = pod.spec.initContainers ?? [];
  let previousSidecarName = "";
  // Get the init containers in reverse order.
  for (let i = inits.length - 1; i >= 0; i--) {
    const ic = inits[i]!;
    channel(ic.name, preCloseNotRunningSidecars);
    if (!isRestartableInitContainer(ic)) continue;
    // Sidecars need to wait for all main containers to exit.
    const prereqs = [...(to.prereqs.get(ic.name) ?? []), ...mainContainerChannels];
    // If there is a later sidecar, this container needs to wait for it to finish.
    if (previousSidecarName !== "") prereqs.push(to.terminated.get(previousSidecarName)!);
    to.prereqs.set(ic.name, prereqs);
    previousSidecarName = ic.name;
  }
  return to;
}
