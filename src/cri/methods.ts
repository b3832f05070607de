// Models staging/src/k8s.io/cri-api/pkg/apis/services.go (RuntimeService and ImageManagerService method names).
//
// The same list as the scenario schema's CRI_METHODS: the scenario layer sits above cri/ and may
// import this one; cri/ must not import upward.

export const CRI_METHODS = [
  "Version",
  "Status",
  "RunPodSandbox",
  "StopPodSandbox",
  "RemovePodSandbox",
  "PodSandboxStatus",
  "ListPodSandbox",
  "CreateContainer",
  "StartContainer",
  "StopContainer",
  "RemoveContainer",
  "ListContainers",
  "ContainerStatus",
  "UpdateContainerResources",
  "ExecSync",
  "GetContainerEvents",
  "ListImages",
  "ImageStatus",
  "PullImage",
  "RemoveImage",
] as const;

export type CriMethod = (typeof CRI_METHODS)[number];

/** Methods that act on one container, so a fault may name a container. */
export const CONTAINER_METHODS: readonly CriMethod[] = [
  "CreateContainer",
  "StartContainer",
  "StopContainer",
  "RemoveContainer",
  "ContainerStatus",
  "UpdateContainerResources",
  "ExecSync",
];
