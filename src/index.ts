// The library entry point of kubelet-sim. The kernel is also exported alone as "kubelet-sim/sim".
export * as sim from "./sim/index.ts";
export { VERSION } from "./version.ts";
