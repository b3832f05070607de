// Models pkg/kubelet/pod/mirror_client.go and kubelet.go tryReconcileMirrorPods: a static pod is
// shown in the apiserver through a mirror pod the kubelet creates (annotated with the static
// pod's config hash) and replaces when it is outdated or being deleted.
import type { Proc, Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { PodsClient } from "../apiserver/client.ts";
import { ConfigHashAnnotationKey, ConfigMirrorAnnotationKey, ConfigSourceAnnotationKey, ConfigFirstSeenAnnotationKey, IsStaticPod } from "./types.ts";

export class MirrorClient {
  constructor(
    private readonly sim: Sim,
    private readonly client: PodsClient,
    private readonly nodeName: string,
  ) {}

  /**
   * CreateMirrorPod: a copy of the static pod with the mirror annotation set to its hash; the
   * kubelet-local annotations are dropped. AlreadyExists is fine when the existing one matches.
   */
  *CreateMirrorPod(pod: Pod): Proc<Error | null> {
    const hash = pod.metadata.annotations?.[ConfigHashAnnotationKey] ?? pod.metadata.uid ?? "";
    const annotations: Record<string, string> = { ...(pod.metadata.annotations ?? {}), [ConfigMirrorAnnotationKey]: hash };
    delete annotations[ConfigSourceAnnotationKey];
    delete annotations[ConfigFirstSeenAnnotationKey];
    const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, ...meta } = pod.metadata;
    const mirror: Pod = {
      ...pod,
      metadata: {
        ...meta,
        annotations,
        ownerReferences: [{ apiVersion: "v1", kind: "Node", name: this.nodeName, uid: `node-${this.nodeName}`, controller: true }],
      },
      status: undefined,
    };
    const r = yield* this.client.createPod(mirror);
    if (r.err === null) return null;
    if (r.err.reason === "AlreadyExists") {
      const got = yield* this.client.getPod(pod.metadata.namespace ?? "default", pod.metadata.name);
      if (got.err === null && got.value.metadata.annotations?.[ConfigMirrorAnnotationKey] === hash) return null;
    }
    return new Error(r.err.message);
  }

  /** DeleteMirrorPod: delete by full name, with the mirror's UID as a precondition. */
  *DeleteMirrorPod(namespace: string, name: string, uid: string | undefined): Proc<[boolean, Error | null]> {
    const r = yield* this.client.deletePod(namespace, name, { gracePeriodSeconds: 0, ...(uid === undefined ? {} : { preconditions: { uid } }) });
    if (r.err === null) return [true, null];
    if (r.err.reason === "NotFound") return [false, null];
    return [false, new Error(r.err.message)];
  }

  /** tryReconcileMirrorPods: replace a mirror pod that is deleted or no longer matches, create a missing one. */
  *tryReconcileMirrorPods(staticPod: Pod, mirrorPod: Pod | undefined): Proc<void> {
    if (!IsStaticPod(staticPod)) return;
    let deleted = false;
    if (mirrorPod !== undefined && (mirrorPod.metadata.deletionTimestamp || !IsMirrorPodOf(mirrorPod, staticPod))) {
      const [ok, err] = yield* this.DeleteMirrorPod(mirrorPod.metadata.namespace ?? "default", mirrorPod.metadata.name, mirrorPod.metadata.uid);
      deleted = ok;
      this.sim.emit("kubelet", "DeleteMirrorPod", { pod: ref(staticPod), deleted: ok, err: err?.message ?? null });
    }
    if (mirrorPod === undefined || deleted) {
      const err = yield* this.CreateMirrorPod(staticPod);
      this.sim.emit("kubelet", "CreateMirrorPod", { pod: ref(staticPod), err: err?.message ?? null });
    }
  }
}

/** kubepod.IsMirrorPodOf: same full name, and the mirror's hash is the static pod's. */
export function IsMirrorPodOf(mirrorPod: Pod, pod: Pod): boolean {
  if (mirrorPod.metadata.name !== pod.metadata.name || (mirrorPod.metadata.namespace ?? "default") !== (pod.metadata.namespace ?? "default")) return false;
  const hash = pod.metadata.annotations?.[ConfigHashAnnotationKey];
  return hash !== undefined && mirrorPod.metadata.annotations?.[ConfigMirrorAnnotationKey] === hash;
}

function ref(p: Pod): string {
  return `${p.metadata.namespace ?? "default"}/${p.metadata.name}`;
}
