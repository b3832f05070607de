// The checker's dispatch of trace records to the invariant monitors, compiled once per checker from
// what each monitor declares it reads (`reads`: record kinds and their fields), so a record goes
// straight to the monitors of its kind. A monitor that acts on time passing (`advance`) and does
// not read a record's kind is told the time instead, once per instant unless its last call found
// something (its deadlines report one violation per call). That is what the monitor's `observe`
// of an unread kind does by contract, so every monitor sees what it would see if it were shown
// every record (the reference: `everything`), which test/check/lazy_records.test.ts holds the
// dispatched runs to. A monitor that names the deadlines its advance judges (`deadlines`) is not
// told the time while it holds none: its advance would find nothing.
//
// Strict reads (tests): each monitor gets each record behind a view that reports a read of a
// field its declaration does not name, so a declaration cannot silently fall behind the code.
import type { TraceRecord } from "../sim/index.ts";
import type { StoredEvent } from "../apiserver/index.ts";
import type { InvariantMonitor, Violation } from "./invariants/common.ts";

/** Fields every record has, readable whatever a monitor declares. */
const ALWAYS_READABLE: ReadonlySet<string> = new Set(["t", "seq", "component", "kind"]);

/**
 * A monitor, and since when nothing it could report is left undelivered. Its methods are bound
 * once here: read off the monitors themselves, every call would look its method up on one of
 * thirty-odd shapes of object (a megamorphic load, most of the dispatch's own time in a profile).
 */
interface Slot {
  /** The monitor's observe, behind strict reads when they are on. */
  readonly observe: (rec: TraceRecord) => Violation | null;
  readonly advance: ((t: number) => Violation | null) | null;
  readonly observeApi: ((e: StoredEvent, nowMs: number) => Violation | null) | null;
  /** The instant of its last `advance`, while that found nothing and nothing reached it since; -1 otherwise. */
  quietAtMs: number;
  /** What its advance judges (InvariantMonitor.deadlines): while empty, advance is not called. */
  readonly deadlines: { readonly size: number } | null;
}

/** One monitor's part in a record's delivery: observe the record, or only learn the time. */
interface Step {
  /** The monitor's index. */
  readonly slot: number;
  readonly observes: boolean;
}

/** The dispatch table: depends only on the monitors' declarations, so it is kept across runs. */
interface Table {
  /** The kinds some monitor reads; undefined when one reads every kind. */
  readonly kinds: ReadonlySet<string> | undefined;
  readonly routes: ReadonlyMap<string, readonly Step[]>;
  /** For a kind no monitor declares: the monitors that read every kind observe, the advancers learn the time. */
  readonly otherwise: readonly Step[];
}

/** A read of a field that the reader's declaration does not name (strict reads). */
export interface UndeclaredRead {
  reader: string;
  kind: string;
  field: string;
}

export interface DispatchOptions {
  /** Show every monitor every record (the reference the dispatch is held to). */
  everything?: boolean;
  /** Report each read of a field the reader did not declare. */
  onUndeclaredRead?: (r: UndeclaredRead) => void;
}

/** The kinds a monitor reads; undefined: every kind. */
export function kindsOf(m: Pick<InvariantMonitor, "reads" | "kinds">): readonly string[] | undefined {
  return m.reads !== undefined ? Object.keys(m.reads) : m.kinds;
}

export class MonitorDispatch {
  /** The kinds some monitor reads; undefined when one reads every kind. */
  readonly kinds: ReadonlySet<string> | undefined;
  private readonly slots: Slot[];
  private readonly advancers: Slot[];
  /** The slots of the monitors that read apiserver writes, in slot order. */
  private readonly apiReaders: Slot[];
  private readonly table: Table;

  constructor(monitors: readonly InvariantMonitor[], opts: DispatchOptions = {}) {
    const report = opts.onUndeclaredRead;
    // A loop that pushes, not `monitors.map`: an array that TurboFan-compiled `map` builds is HOLEY, the
    // builtin's is PACKED, so once this constructor is optimized (about run 300 of an exploration)
    // every reader of the slots (deliver, advance, observeApi, inlined into the trace's emit and
    // drop) met a second array map and was deoptimized (docs/BENCHMARKS-history.md, "Tiering across runs").
    this.slots = [];
    for (const m of monitors) {
      this.slots.push({
        observe: report === undefined ? m.observe.bind(m) : strictObserve(m, report),
        advance: m.advance === undefined ? null : m.advance.bind(m),
        observeApi: m.observeApi === undefined ? null : m.observeApi.bind(m),
        quietAtMs: -1,
        // The reference (everything) calls every advance, as before deadlines were named.
        deadlines: m.advance === undefined || opts.everything === true ? null : (m.deadlines ?? null),
      });
    }
    this.advancers = this.slots.filter((s) => s.advance !== null);
    this.apiReaders = this.slots.filter((s) => s.observeApi !== null);
    this.table = tableFor(monitors, opts.everything === true);
    this.kinds = this.table.kinds;
  }

  /** A record was built: its readers observe it, the advancers that do not read it learn the time. */
  deliver(rec: TraceRecord, onViolation: (v: Violation) => void): void {
    const steps = this.table.routes.get(rec.kind) ?? this.table.otherwise;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      const slot = this.slots[step.slot]!;
      let v: Violation | null;
      if (step.observes) {
        slot.quietAtMs = -1;
        v = slot.observe(rec);
      } else {
        if (slot.quietAtMs === rec.t) continue;
        if (slot.deadlines !== null && slot.deadlines.size === 0) {
          slot.quietAtMs = rec.t; // what the call would have left: it finds nothing
          continue;
        }
        v = slot.advance!(rec.t);
        slot.quietAtMs = v === null ? rec.t : -1;
      }
      if (v !== null) onViolation(v);
    }
  }

  /** Time moved to t at a record nobody reads: what its delivery would have done. */
  advance(t: number, onViolation: (v: Violation) => void): void {
    for (const slot of this.advancers) {
      if (slot.quietAtMs === t) continue;
      if (slot.deadlines !== null && slot.deadlines.size === 0) {
        slot.quietAtMs = t;
        continue;
      }
      const v = slot.advance!(t);
      slot.quietAtMs = v === null ? t : -1;
      if (v !== null) onViolation(v);
    }
  }

  /** An apiserver write: every monitor that reads them. */
  observeApi(e: StoredEvent, nowMs: number, onViolation: (v: Violation) => void): void {
    for (const slot of this.apiReaders) {
      slot.quietAtMs = -1;
      const v = slot.observeApi!(e, nowMs);
      if (v !== null) onViolation(v);
    }
  }
}

/** The table compiled from these declarations before (every run of an exploration has the same ones), or a new one. */
function tableFor(monitors: readonly InvariantMonitor[], everything: boolean): Table {
  // The last table used first: every run of an exploration asks for it, and comparing the
  // declarations costs less than building the key.
  if (last !== null && last.everything === everything && declares(last.decl, monitors)) return last.table;
  const key = `${everything}|${monitors.map((m) => m.id).join("|")}`;
  const kept = tables.get(key);
  if (kept !== undefined && declares(kept.decl, monitors)) return (last = kept).table;
  if (tables.size >= MAX_TABLES) tables.clear();
  const table = compile(monitors, everything);
  last = { everything, decl: monitors.map((m) => ({ id: m.id, reads: m.reads, kinds: m.kinds, clock: m.advance !== undefined })), table };
  tables.set(key, last);
  return table;
}

/** Whether these are the declarations of these monitors, in order. */
function declares(decl: readonly Declaration[], monitors: readonly InvariantMonitor[]): boolean {
  if (decl.length !== monitors.length) return false;
  for (let i = 0; i < decl.length; i++) if (decl[i]!.id !== monitors[i]!.id || !sameDeclaration(decl[i]!, monitors[i]!)) return false;
  return true;
}

interface Declaration {
  id: string;
  reads: InvariantMonitor["reads"];
  kinds: InvariantMonitor["kinds"];
  clock: boolean;
}

function sameDeclaration(d: Declaration, m: InvariantMonitor): boolean {
  return d.reads === m.reads && d.kinds === m.kinds && d.clock === (m.advance !== undefined);
}

interface Kept {
  everything: boolean;
  decl: Declaration[];
  table: Table;
}

const tables = new Map<string, Kept>();
let last: Kept | null = null;
/** A bound on the tables kept: explorations use one set of monitors; tests and servers may use many. */
const MAX_TABLES = 64;

function compile(monitors: readonly InvariantMonitor[], everything: boolean): Table {
  const declared = monitors.map(kindsOf);
  const all = new Set(declared.flatMap((k) => k ?? []));
  const route = (kind: string | null): Step[] => {
    const steps: Step[] = [];
    monitors.forEach((m, slot) => {
      const observes = everything || declared[slot] === undefined || (kind !== null && declared[slot]!.includes(kind));
      if (observes || m.advance !== undefined) steps.push({ slot, observes });
    });
    return steps;
  };
  return {
    kinds: declared.every((k) => k !== undefined) ? all : undefined,
    routes: new Map([...all].map((kind) => [kind, route(kind)])),
    otherwise: route(null),
  };
}

/** observe with each record behind a view that reports reads the monitor's declaration does not name. */
function strictObserve(m: InvariantMonitor, report: (r: UndeclaredRead) => void): (rec: TraceRecord) => Violation | null {
  const byKind = new Map(Object.entries(m.reads ?? {}).map(([k, fields]) => [k, new Set(fields)]));
  const undeclared = m.reads === undefined;
  return (rec) => m.observe(undeclared ? rec : strictView(rec, m.id, byKind.get(rec.kind) ?? new Set(), report));
}

/** The record behind a proxy that reports every read of a field outside `allowed` (and every enumeration). */
export function strictView(rec: TraceRecord, reader: string, allowed: ReadonlySet<string>, report: (r: UndeclaredRead) => void): TraceRecord {
  const check = (field: string | symbol): void => {
    if (typeof field === "string" && !ALWAYS_READABLE.has(field) && !allowed.has(field)) report({ reader, kind: rec.kind, field });
  };
  return new Proxy(rec, {
    get(target, field, receiver) {
      check(field);
      return Reflect.get(target, field, receiver);
    },
    has(target, field) {
      check(field);
      return Reflect.has(target, field);
    },
    ownKeys(target) {
      report({ reader, kind: rec.kind, field: "(every field)" });
      return Reflect.ownKeys(target);
    },
    set() {
      throw new TypeError(`${reader} wrote to a ${rec.kind} record`);
    },
  });
}
