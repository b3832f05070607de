// kubecontainer: the runtime-neutral container types and helpers the kubelet's models share.
export * from "./runtime.ts";
export * from "./helpers.ts";
