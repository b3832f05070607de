// pleg: the pod lifecycle event generator (pkg/kubelet/pleg): the generic, relisting PLEG.
export * from "./pleg.ts";
export * from "./generic_events.ts";
export * from "./generic.ts";
