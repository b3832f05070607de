// kuberuntime: the kubelet's pure decision cores for the generic runtime manager.
export * from "./pod_actions.ts";
export * from "./helpers.ts";
export * from "./kuberuntime_manager.ts";
export {
  computeInitContainerActions,
  findNextInitContainerToRun,
  hasAnyRegularContainerCreated,
  type NextInitContainer,
} from "./kuberuntime_container.ts";
export * from "./kill_container.ts";
export * from "./kuberuntime_backoff.ts";
export * from "./image_pull.ts";
export * from "./util/util.ts";
