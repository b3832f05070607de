// Where each row of the view goes, top to bottom, for the current filters: per run (two in a diff)
// a title, the pods' `kubectl get` bands, the choice points, then the lanes grouped by component.
import type { Lane, PageData, RunIndex } from "./data.ts";

export interface ViewState {
  /** Only this pod's records and lanes; null for every pod. */
  pod: string | null;
  hiddenGroups: Set<string>;
  /** A cluster's nodes whose lanes are folded away under their header. */
  hiddenNodes: Set<string>;
  /** Only the goroutines a violation involves. */
  narrow: boolean;
  showNoisy: boolean;
  showArrows: boolean;
  selected: { run: number; seq: number } | null;
}

export const ROW = { title: 20, band: 16, choices: 16, node: 18, group: 16, marks: 16, span: 13, lanePad: 3 } as const;

export interface LaneRow {
  run: number;
  lane: Lane;
  y: number;
  h: number;
  /** The y of the marks' row centre. */
  midY: number;
  /** The top of each track's first span row. */
  trackTop: number[];
}

export interface RunSection {
  run: number;
  y: number;
  titleY: number | null;
  bands: { pod: string; y: number }[];
  choicesY: number;
  groups: { group: string; y: number }[];
  /** A cluster's node headers: each node's lanes follow its header; `folded` lanes are hidden under it. */
  nodes: { node: string; y: number; folded: number }[];
  lanes: LaneRow[];
}

export interface Layout {
  sections: RunSection[];
  height: number;
  /** "run:lane" → its row, for the lanes shown. */
  laneRow: Map<string, LaneRow>;
}

/**
 * The names of the lanes the violations involve, in any run shown: a diff narrows both runs to
 * the same goroutines, so the side without the violation shows what those goroutines did instead.
 */
export function involvedLaneNames(runs: readonly RunIndex[], actors: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const idx of runs) for (const v of idx.model.violations) for (const l of v.lanes) names.add(idx.model.lanes[l]!.name);
  if (names.size === 0) return names;
  for (const idx of runs) for (const l of idx.model.lanes) if (actors.some((a) => l.name === a || l.name.startsWith(a))) names.add(l.name);
  return names;
}

/** Whether a lane is shown under the filters. */
export function laneShown(idx: RunIndex, lane: Lane, state: ViewState, involved: ReadonlySet<string>): boolean {
  if (state.hiddenGroups.has(lane.group)) return false;
  if (state.narrow && involved.size > 0 && !involved.has(lane.name)) return false;
  if (state.pod !== null && !idx.podsOfLane[lane.id]!.has(state.pod)) return false;
  return true;
}

function laneRow(idx: RunIndex, run: number, lane: Lane, y: number, showNoisy: boolean): LaneRow {
  const trackTop: number[] = [];
  let top = y + ROW.marks;
  // A track with only periodic spans keeps no room while those are hidden (its spans are not drawn).
  const quiet = idx.trackRowsQuiet[lane.id]!;
  for (const [k, all] of idx.trackRows[lane.id]!.entries()) {
    const rows = showNoisy ? all : quiet[k] ?? 0;
    trackTop.push(top);
    top += rows * ROW.span;
  }
  const h = Math.max(ROW.marks + ROW.lanePad, top - y + ROW.lanePad);
  return { run, lane, y, h, midY: y + ROW.marks / 2, trackTop };
}

export function layout(page: PageData, runs: readonly RunIndex[], state: ViewState): Layout {
  const sections: RunSection[] = [];
  const laneRowMap = new Map<string, LaneRow>();
  const involved = involvedLaneNames(runs, page.narrowActors);
  let y = 0;
  runs.forEach((idx, run) => {
    const titleY = page.isDiff ? y : null;
    if (page.isDiff) y += ROW.title;
    const bands = idx.model.pods.filter((b) => state.pod === null || b.pod === state.pod).map((b) => ({ pod: b.pod, y: (y += ROW.band) - ROW.band }));
    const choicesY = y;
    y += ROW.choices;
    const groups: { group: string; y: number }[] = [];
    const nodes: { node: string; y: number; folded: number }[] = [];
    const lanes: LaneRow[] = [];
    let node: string | undefined;
    for (const lane of idx.model.lanes) {
      if (!laneShown(idx, lane, state, involved)) continue;
      if (lane.node !== node) {
        node = lane.node;
        if (node !== undefined) {
          nodes.push({ node, y, folded: 0 });
          y += ROW.node;
        }
      }
      if (node !== undefined && state.hiddenNodes.has(node)) {
        nodes[nodes.length - 1]!.folded++;
        continue;
      }
      // A new component header under each node header, even for the component the last node ended with.
      const last = groups[groups.length - 1];
      if (last === undefined || last.group !== lane.group || last.y < (nodes[nodes.length - 1]?.y ?? -1)) {
        groups.push({ group: lane.group, y });
        y += ROW.group;
      }
      const row = laneRow(idx, run, lane, y, state.showNoisy);
      lanes.push(row);
      laneRowMap.set(`${run}:${lane.id}`, row);
      y += row.h;
    }
    sections.push({ run, y: titleY ?? bands[0]?.y ?? choicesY, titleY, bands, choicesY, groups, nodes, lanes });
    y += 8;
  });
  return { sections, height: Math.max(y, 60), laneRow: laneRowMap };
}
