// A checker of the Trace Event Format (the JSON chrome://tracing and ui.perfetto.dev read), for the
// tests of the chrome-trace export and of the browser view. It checks what those viewers rely on:
// the object form with a traceEvents array; per phase, the fields the phase needs; metadata naming
// every process and thread used; flows as start/finish pairs; and that the complete events of each
// thread nest (the format's rule for one thread: two slices either nest or do not overlap).

export interface TefEvent {
  ph: string;
  name?: string;
  pid?: number;
  tid?: number;
  ts?: number;
  dur?: number;
  s?: string;
  id?: number;
  bp?: string;
  args?: Record<string, unknown>;
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

function checkEvent(e: TefEvent, i: number): string[] {
  const where = `event ${i} (${e.ph} ${e.name ?? ""})`;
  const out: string[] = [];
  if (typeof e.name !== "string") out.push(`${where}: no name`);
  if (!isNum(e.pid)) out.push(`${where}: no pid`);
  switch (e.ph) {
    case "X":
      if (!isNum(e.tid) || !isNum(e.ts) || !isNum(e.dur) || e.dur < 0) out.push(`${where}: a complete event needs tid, ts and dur >= 0`);
      break;
    case "i":
      if (!isNum(e.ts) || !["t", "p", "g"].includes(e.s ?? "t")) out.push(`${where}: an instant needs ts and scope t, p or g`);
      if ((e.s ?? "t") === "t" && !isNum(e.tid)) out.push(`${where}: a thread instant needs tid`);
      break;
    case "s":
    case "t":
    case "f":
      if (!isNum(e.tid) || !isNum(e.ts) || e.id === undefined) out.push(`${where}: a flow event needs tid, ts and id`);
      break;
    case "M":
      if (!["process_name", "thread_name", "process_sort_index", "thread_sort_index"].includes(e.name ?? "") || e.args === undefined) out.push(`${where}: unknown metadata`);
      break;
    default:
      out.push(`${where}: unexpected phase`);
  }
  return out;
}

/** Slices of one thread, sorted by start then longest first, must each fit in the innermost open one. */
function checkNesting(events: readonly TefEvent[]): string[] {
  const byThread = new Map<string, TefEvent[]>();
  for (const e of events) {
    if (e.ph !== "X") continue;
    const key = `${e.pid}:${e.tid}`;
    const list = byThread.get(key) ?? [];
    list.push(e);
    byThread.set(key, list);
  }
  const out: string[] = [];
  for (const [thread, list] of byThread) {
    list.sort((a, b) => a.ts! - b.ts! || b.dur! - a.dur!);
    const stack: TefEvent[] = [];
    for (const e of list) {
      while (stack.length > 0 && stack[stack.length - 1]!.ts! + stack[stack.length - 1]!.dur! <= e.ts!) stack.pop();
      const top = stack[stack.length - 1];
      if (top !== undefined && e.ts! + e.dur! > top.ts! + top.dur!) {
        out.push(`thread ${thread}: "${e.name}" [${e.ts}, ${e.ts! + e.dur!}] crosses "${top.name}" [${top.ts}, ${top.ts! + top.dur!}]`);
        continue;
      }
      stack.push(e);
    }
  }
  return out;
}

function checkNamesAndFlows(events: readonly TefEvent[]): string[] {
  const out: string[] = [];
  const named = new Set(events.filter((e) => e.ph === "M" && e.name === "thread_name").map((e) => `${e.pid}:${e.tid}`));
  const processes = new Set(events.filter((e) => e.ph === "M" && e.name === "process_name").map((e) => e.pid));
  for (const e of events) {
    if (e.ph === "M" || e.s === "g") continue;
    if (!processes.has(e.pid)) out.push(`pid ${e.pid} has no process_name`);
    if (e.tid !== undefined && !named.has(`${e.pid}:${e.tid}`)) out.push(`thread ${e.pid}:${e.tid} has no thread_name`);
  }
  const starts = new Map<unknown, number>();
  const finishes = new Map<unknown, number>();
  for (const e of events) {
    if (e.ph === "s") starts.set(e.id, (starts.get(e.id) ?? 0) + 1);
    if (e.ph === "f") finishes.set(e.id, (finishes.get(e.id) ?? 0) + 1);
  }
  for (const [id, n] of starts) if (n !== 1 || finishes.get(id) !== 1) out.push(`flow ${String(id)}: ${n} start(s), ${finishes.get(id) ?? 0} finish(es)`);
  for (const id of finishes.keys()) if (!starts.has(id)) out.push(`flow ${String(id)} finishes without a start`);
  return [...new Set(out)];
}

/** Every problem found in a Trace Event Format text; [] when it is sound. */
export function checkTraceEventFormat(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return [`not JSON: ${(err as Error).message}`];
  }
  const events = (json as { traceEvents?: unknown }).traceEvents;
  if (!Array.isArray(events)) return ["no traceEvents array"];
  const list = events as TefEvent[];
  return [...list.flatMap(checkEvent), ...checkNesting(list), ...checkNamesAndFlows(list)];
}
