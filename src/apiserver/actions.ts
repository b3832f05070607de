// Models what `kubectl` does for a scenario's timeline steps (create, delete, delete --force, set image).
//
// The "user" side calls the same client as the kubelet, so its requests take virtual time, can
// be cut off by a partition, and show up in the trace as actor "user". `setImage` is a GET →
// change → PUT loop with client-go's retry.RetryOnConflict(retry.DefaultRetry, ...).
import { produce } from "immer";
import { sleep, type Proc } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { ApiResult, DeleteResult, PodsClient } from "./client.ts";
import { isConflict } from "./errors.ts";

/** retry.DefaultRetry: 5 steps, 10 ms apart (the 0.1 jitter is left out: it is not the kubelet's). */
export const DEFAULT_RETRY = { steps: 5, durationMs: 10 } as const;

/** `kubectl create -f`: the manifest as written; the apiserver defaults it. */
export function create(client: PodsClient, manifest: Pod): Proc<ApiResult<Pod>> {
  return client.createPod(manifest);
}

/** `kubectl delete pod [--grace-period=N]`: unset grace uses the pod's terminationGracePeriodSeconds. */
export function del(client: PodsClient, namespace: string, name: string, gracePeriodSeconds?: number): Proc<ApiResult<DeleteResult>> {
  return client.deletePod(namespace, name, gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds });
}

/** `kubectl delete pod --grace-period=0 --force`: the object is removed at once. */
export function forceDelete(client: PodsClient, namespace: string, name: string): Proc<ApiResult<DeleteResult>> {
  return client.deletePod(namespace, name, { gracePeriodSeconds: 0 });
}

/** `kubectl set image pod/<name> <container>=<image>`: GET, change, PUT; retried on 409 Conflict. */
export function* setImage(client: PodsClient, namespace: string, name: string, container: string, image: string): Proc<ApiResult<Pod>> {
  let last: ApiResult<Pod> | null = null;
  for (let step = 0; step < DEFAULT_RETRY.steps; step++) {
    if (step > 0) yield* sleep(DEFAULT_RETRY.durationMs, "retry on conflict");
    const got = yield* client.getPod(namespace, name);
    if (got.err !== null) return got;
    if (!got.value.spec.containers.some((c) => c.name === container)) {
      throw new Error(`setImage: pod ${namespace}/${name} has no container ${container}`);
    }
    const next = produce(got.value, (d) => {
      for (const c of d.spec.containers) if (c.name === container) c.image = image;
    });
    last = yield* client.updatePod(next);
    if (!isConflict(last.err)) return last;
  }
  return last!;
}
