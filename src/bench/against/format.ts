// How `--against` prints: a header naming both commits and the host, one row per figure (both
// values, the ratio new/old and the pairs' spread), and a footer with the load at the end and the
// time taken; or with --json one object per figure and a last object named "host". Pure.
import type { Comparison } from "./compare.ts";

export interface CommitInfo {
  /** The revision as the user wrote it (a hash, HEAD, a branch). */
  rev: string;
  commit: string;
  subject: string;
  /** Only for the new tree: it has changes not committed, which are measured too. */
  dirty: boolean;
}

export interface HostInfo {
  cpu: string;
  cores: number;
  node: string;
  /** os.loadavg() (1, 5 and 15 minutes) when the measuring starts and when it ends. */
  loadAverageStart: number[];
  loadAverageEnd: number[] | null;
}

export interface RunInfo {
  old: CommitInfo;
  new: CommitInfo;
  host: HostInfo;
  repeat: number;
  /** Wall time of the whole command, and the part spent building the two trees. */
  seconds: number | null;
  buildSeconds: number | null;
}

const short = (c: CommitInfo) => c.commit.slice(0, 10);
const SUBJECT_CHARS = 72;

/** A commit subject cut to one readable line. */
export function shortSubject(subject: string): string {
  return subject.length <= SUBJECT_CHARS ? subject : `${subject.slice(0, SUBJECT_CHARS - 1)}…`;
}

/** 2,511,255 / 834 / 39.6 / 0.51: as many digits as a figure of that size can carry. */
export function formatFigure(x: number | null): string {
  if (x === null) return "n/a";
  const a = Math.abs(x);
  if (a >= 100) return Math.round(x).toLocaleString("en-US");
  if (a >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

/** 1.00× / 4.13×; below 0.1 two significant digits (0.0041×), so a change of hundreds of times does not print as 0.00×. */
export function formatRatio(x: number | null): string {
  if (x === null) return "n/a";
  return Math.abs(x) >= 0.1 || x === 0 ? `${x.toFixed(2)}×` : `${x.toPrecision(2)}×`;
}

const loads = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(" ");

export function headerText(info: RunInfo): string {
  const commit = (c: CommitInfo, side: string) =>
    `${side}  ${short(c)}${c.rev === c.commit || c.commit.startsWith(c.rev) ? "" : ` (${c.rev})`}${c.dirty ? " + uncommitted changes" : ""}  ${shortSubject(c.subject)}`;
  return [
    `bench --against: ${info.repeat} pair${info.repeat === 1 ? "" : "s"} per figure, the old tree and the new one measured alternately`,
    commit(info.old, "old"),
    commit(info.new, "new"),
    `host ${info.host.cpu}, ${info.host.cores} cores, Node ${info.host.node}; load average ${loads(info.host.loadAverageStart)} (1, 5, 15 min) at start`,
    "",
    row("line", "figure", "old", "new", "new/old", "pairs' range"),
  ].join("\n");
}

const COLUMNS = [18, 44, 11, 11, 9] as const;

function row(name: string, figure: string, oldText: string, newText: string, ratio: string, range: string): string {
  return `${name.padEnd(COLUMNS[0])} ${figure.padEnd(COLUMNS[1])} ${oldText.padStart(COLUMNS[2])} ${newText.padStart(COLUMNS[3])} ${ratio.padStart(COLUMNS[4])}  ${range}`.trimEnd();
}

/** One figure as a row of the table, its note (if any) on the next line. */
export function comparisonText(c: Comparison): string {
  const figure = c.better === "lower" ? `${c.figure} (lower is better)` : c.figure;
  const pairs = c.oldSamples.length;
  const range = c.ratio === null ? "" : pairs === 1 ? "(1 pair)" : `${formatRatio(c.ratioMin)}–${formatRatio(c.ratioMax)} over ${pairs}`;
  const line = row(c.name, figure, formatFigure(c.old), formatFigure(c.new), formatRatio(c.ratio), range);
  return c.note === undefined ? line : `${line}\n${" ".repeat(COLUMNS[0] + 1)}${c.note}`;
}

/** One figure as one JSON object: the comparison, and both commits so a line stands alone. */
export function comparisonJson(c: Comparison, info: Pick<RunInfo, "old" | "new">): string {
  return JSON.stringify({ ...c, oldCommit: info.old.commit, newCommit: info.new.commit });
}

function duration(seconds: number): string {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

export function footerText(info: RunInfo): string {
  const end = info.host.loadAverageEnd === null ? "" : `load average ${loads(info.host.loadAverageEnd)} at end`;
  const took = info.seconds === null ? "" : `; took ${duration(info.seconds)}${info.buildSeconds === null ? "" : ` (${duration(info.buildSeconds)} of it building)`}`;
  return `\n${end}${took}`;
}

/** The last JSON object: the host and both commits, the load at start and end, the time taken. */
export function hostJson(info: RunInfo): string {
  return JSON.stringify({ name: "host", ...info.host, old: info.old, new: info.new, repeat: info.repeat, seconds: info.seconds, buildSeconds: info.buildSeconds });
}
