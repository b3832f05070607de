// Which records an invariant violation is about. A checker's message names them the way a person
// would: by instant ("began at 40542ms"), kind ("(SyncLoopDELETE)", "CreateContainer"), container and
// id ("container app (c-1)"). This reads those names back: for each instant the message names, the
// records of the violation's pod at that instant (or beginning then: a call's record is written when
// it returns) that share the most words with the message; for each id it names ("c-2", a UID), the
// record that introduced it. It never guesses beyond what the message says.
import { num, str, type TraceRecord } from "../records.ts";
import { CHECK_COMPONENT, SIM_COMPONENT } from "./lanes.ts";

/** The most records linked per named instant, and in all. */
const PER_INSTANT = 3;
const MAX_LINKS = 10;
/** The score a record needs at an instant the message does not name. */
const STRONG = 3;

/** Fields whose values, when the message names them, tie a record to it. */
const NAMING_FIELDS = ["container", "id", "newId", "containerID", "updateType", "pinnedBy", "probeType", "event", "data", "step", "image", "type", "reason"];
/** Fields that introduce an id (the record that created it). */
const ID_FIELDS = ["newId", "uid", "id", "containerID"];

/** The words of a text, lower case: "SyncLoopDELETE" gives "syncloopdelete"; ids keep their dashes. */
function wordsOf(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9][a-z0-9_.:-]*[a-z0-9]|[a-z0-9]/g) ?? []).map((w) => w.replace(/^containerd:\/\//, "")));
}

/** "UpdateDropped" → ["update", "dropped"]; "SyncLoopDELETE" → ["sync", "loop", "delete"]. */
function kindWords(kind: string): string[] {
  return (kind.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [kind]).map((w) => w.toLowerCase());
}

/** A message word names a kind word when equal, or when it inflects it ("started" for "start"). */
function names(words: ReadonlySet<string>, w: string): boolean {
  if (words.has(w)) return true;
  if (w.length < 3) return false;
  for (const m of words) if (m.startsWith(w) && m.length - w.length <= 3) return true;
  return false;
}

function aboutPod(rec: TraceRecord, pod: string | undefined): boolean {
  if (pod === undefined) return false;
  if (rec.pod === pod) return true;
  const pods = rec["pods"];
  return Array.isArray(pods) && pods.includes(pod);
}

/** How strongly the message names a record; 0 when not at all. */
function score(rec: TraceRecord, words: ReadonlySet<string>, pod: string | undefined): number {
  let s = 0;
  if (words.has(rec.kind.toLowerCase())) s += 5;
  else s += kindWords(rec.kind).filter((w) => names(words, w)).length;
  for (const f of NAMING_FIELDS) {
    const v = rec[f];
    if (typeof v === "string" && v !== "" && words.has(v.toLowerCase().replace(/^containerd:\/\//, ""))) s++;
  }
  if (words.has(rec.component.toLowerCase())) s++;
  return s > 0 || aboutPod(rec, pod) ? s + (aboutPod(rec, pod) ? 1 : 0) : 0;
}

function startMs(rec: TraceRecord): number {
  const took = num(rec, "tookMs") ?? num(rec, "durationMs");
  if (took !== undefined) return rec.t - took;
  return num(rec, "sinceMs") ?? rec.t;
}

/** The seqs of the records a violation's message names, in trace order (the violation's own not included). */
export function linkedRecords(violation: TraceRecord, records: readonly TraceRecord[]): number[] {
  const message = str(violation, "message") ?? "";
  const pod = str(violation, "pod");
  const words = wordsOf(message);
  const linked = new Set<number>();
  const steps = records.filter((r) => r.component !== CHECK_COMPONENT && r.component !== SIM_COMPONENT && r.seq < violation.seq);
  const instants = [...message.matchAll(/\b(\d+)ms\b/g)].map((m) => ({ at: Number(m[1]), min: 1 }));
  // The violation's own instant is named implicitly ("landed on"); only a strong match counts there.
  instants.push({ at: violation.t, min: STRONG });
  for (const { at, min } of instants) {
    const scored = steps
      .filter((r) => r.t === at || startMs(r) === at)
      .map((r) => ({ r, s: score(r, words, pod) }))
      .filter((x) => x.s >= min && (x.s > 1 || aboutPod(x.r, pod)));
    const best = Math.max(0, ...scored.map((x) => x.s));
    for (const x of scored.filter((y) => y.s === best).slice(0, PER_INSTANT)) linked.add(x.r.seq);
  }
  const byTime = steps.filter((r) => linked.has(r.seq));
  for (const id of idsNamed(message)) {
    if (byTime.some((r) => ID_FIELDS.some((f) => r[f] === id))) continue;
    // A view of an object (PodView) shows an id; the record that made it (Create, a CRI call) introduced it.
    const first = steps.find((r) => r.kind !== "PodView" && ID_FIELDS.some((f) => r[f] === id));
    if (first !== undefined) linked.add(first.seq);
  }
  return [...linked].sort((a, b) => a - b).slice(0, MAX_LINKS);
}

/** Ids a message names: runtime ids ("c-2", "s-1", as in "(c-1)") and UIDs. */
function idsNamed(message: string): string[] {
  const ids = message.match(/\b[a-z]-\d+\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g) ?? [];
  return [...new Set(ids)];
}
