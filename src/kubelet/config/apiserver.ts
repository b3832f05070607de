// Models pkg/kubelet/config/apiserver.go (NewSourceApiserver, newSourceApiserverFromLW).
//
// A reflector lists and watches the pods bound to this node (field selector spec.nodeName) into
// an UndeltaStore whose push sends the complete list as one SET from source "api".
// Simplification: upstream first waits for the node object to sync (nodeHasSynced); there is no
// node object here, so the reflector starts at once.
import { send, type Chan, type Sim } from "../../sim/index.ts";
import type { PodsClient } from "../../apiserver/client.ts";
import type { Pod } from "../../k8s/pod.ts";
import { ApiserverSource, type PodUpdate, type SetListing } from "./pod_update.ts";
import { NewListWatchFromClient, Reflector, type ListerWatcher } from "./reflector.ts";
import { UndeltaStore } from "./undelta_store.ts";
import type { BackoffParams } from "./wait_backoff.ts";

export interface ApiserverSourceOptions {
  /** The reflector's backoff; upstream's (800 ms doubling to 30 s, jitter 1.0) by default. */
  readonly backoff?: BackoffParams;
}

/** NewSourceApiserver: starts the reflector process and returns it (for tests and traces). */
export function NewSourceApiserver(sim: Sim, client: PodsClient, nodeName: string, updates: Chan<PodUpdate>,
  opts: ApiserverSourceOptions = {}): Reflector {
  return newSourceApiserverFromLW(sim, NewListWatchFromClient(client, nodeName), updates, opts);
}

export function newSourceApiserverFromLW(sim: Sim, lw: ListerWatcher, updates: Chan<PodUpdate>,
  opts: ApiserverSourceOptions = {}): Reflector {
  function* push(pods: Pod[], listing: SetListing) {
    yield* send(updates, { Pods: pods, Op: "SET", Source: ApiserverSource, listing } satisfies PodUpdate);
  }
  const store = new UndeltaStore(push, (keys) => sim.mapOrder(keys));
  const r = new Reflector(sim, lw, store, { name: "config/apiserver", ...(opts.backoff ? { backoff: opts.backoff } : {}) });
  sim.go("config/reflector", () => r.Run(), { group: "kubelet", daemon: true });
  return r;
}
