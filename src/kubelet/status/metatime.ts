// Models k8s.io/apimachinery/pkg/apis/meta/v1/time.go (metav1.Now, Time.Rfc3339Copy) for the status manager.
//
// The wire form and the virtual epoch are the apiserver model's (apiserver/time.ts), so that the
// times the kubelet writes read like the ones the apiserver stamps. null/"" is Go's zero time.
import { formatRFC3339, parseRFC3339 } from "../../apiserver/time.ts";
import { GO_ZERO_TIME_MS } from "../container/runtime.ts";

export { formatRFC3339 } from "../../apiserver/time.ts";

/** metav1.Now(), already at the apiserver's whole-second precision. */
export function metav1Now(nowMs: number): string {
  return formatRFC3339(nowMs);
}

/** Virtual ms of an API time; Go's zero time for null/"" (so time.Since of it is huge). */
export function parseMetaTime(text: string | null | undefined): number {
  if (text === null || text === undefined || text === "") return GO_ZERO_TIME_MS;
  return parseRFC3339(text);
}

/** Time.Rfc3339Copy: drops sub-second precision; the zero time stays as it is. */
export function rfc3339Copy(text: string | null | undefined): string | null | undefined {
  if (text === null || text === undefined || text === "") return text;
  return formatRFC3339(parseRFC3339(text));
}
