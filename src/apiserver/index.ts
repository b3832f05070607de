// The in-process apiserver for pods: the client interface, the server, its errors and its clock.
export * from "./client.ts";
export { ApiServer, uuidV4, type ApiServerOptions, type MsSpec, type Partition } from "./apiserver.ts";
export {
  StatusError, isConflict, isConnectionRefused, isExpiredError, isNotFound, type StatusReason,
} from "./errors.ts";
export { EPOCH_RFC3339, formatRFC3339, formatRFC3339Nano, parseRFC3339 } from "./time.ts";
export type { StoreState, StoredEvent } from "./store.ts";
export * as kubectl from "./actions.ts";
