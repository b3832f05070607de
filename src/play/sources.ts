// Where in the model's own TypeScript a goroutine stands: the source index scripts/play_sources.cjs
// builds (each generator function's lines and each yield a goroutine can stand at), and the lookup
// from a stack frame to the yield it is at. In the page the frames are the bundled script's, found
// through the index's table of generated positions; in Node (tsx, vitest) they are the sources'
// own. Pure: no DOM, no Node built-ins.

export interface SourceFile {
  /** From the repository root: "src/kubelet/pod_workers_legacy.ts". */
  path: string;
  /** The upstream file its first line says it models ("pkg/kubelet/pod_workers.go"), or null. */
  upstream: string | null;
}

export interface SourceFn {
  file: number;
  /** "LegacyPodWorkers.managePodLoop", or `goroutine "kubelet/evict/web" (in killPodNow)`. */
  name: string;
  /** Its first line in the file, 1-based. */
  line: number;
  lines: string[];
}

/** A yield expression: where a goroutine can stand. Lines and columns are 1-based; the end is exclusive. */
export interface Site {
  fn: number;
  line: number;
  col: number;
  endLine: number;
  endCol: number;
}

export interface SourceIndex {
  files: SourceFile[];
  fns: SourceFn[];
  sites: Site[];
  /** The bundled script's [line, column, site] triples, sorted; null for the sources' own frames. */
  gen: number[] | null;
  /** The bundled line of the calibration mark (where.ts); null with gen. */
  mark: number | null;
}

/** One frame of a V8 stack trace. */
export interface Frame {
  url: string;
  line: number;
  col: number;
}

const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

/** The frames of a V8 `Error.stack`, innermost first; lines it cannot read are skipped. */
export function parseStack(stack: string): Frame[] {
  const out: Frame[] = [];
  for (const line of stack.split("\n")) {
    const m = FRAME.exec(line);
    if (m !== null) out.push({ url: m[1]!, line: Number(m[2]), col: Number(m[3]) });
  }
  return out;
}

/** Finds the site a frame stands at. */
export class SiteFinder {
  private readonly byPath = new Map<string, number>();
  private readonly sitesOfFile = new Map<number, number[]>();

  /**
   * `bundle`: the url and line offset of the page's script, learned by calibration (where.ts), for
   * an index with a generated table; null for the sources' own frames.
   */
  constructor(
    readonly index: SourceIndex,
    private readonly bundle: { url: string; lineOffset: number } | null,
  ) {
    index.files.forEach((f, i) => this.byPath.set(f.path, i));
    index.sites.forEach((s, i) => {
      const file = index.fns[s.fn]!.file;
      const list = this.sitesOfFile.get(file) ?? [];
      list.push(i);
      this.sitesOfFile.set(file, list);
    });
  }

  siteOf(frame: Frame): number | null {
    if (this.index.gen !== null) {
      if (this.bundle === null || frame.url !== this.bundle.url) return null;
      return generatedSite(this.index.gen, frame.line - this.bundle.lineOffset, frame.col);
    }
    const file = this.fileOf(frame.url);
    if (file === null) return null;
    let best: number | null = null;
    for (const i of this.sitesOfFile.get(file) ?? []) if (spans(this.index.sites[i]!, frame.line, frame.col)) best = i;
    return best;
  }

  /** A frame's file among the index's: the longest "src/..." tail of its url that the index knows. */
  private fileOf(url: string): number | null {
    for (let i = url.indexOf("/src/"); i >= 0; i = url.indexOf("/src/", i + 1)) {
      const file = this.byPath.get(url.slice(i + 1));
      if (file !== undefined) return file;
    }
    return null;
  }
}

function spans(s: Site, line: number, col: number): boolean {
  const after = line > s.line || (line === s.line && col >= s.col);
  const before = line < s.endLine || (line === s.endLine && col < s.endCol);
  return after && before;
}

/** The site of the last table entry at or before (line, col); null when it is none. */
function generatedSite(gen: readonly number[], line: number, col: number): number | null {
  let lo = 0;
  let hi = gen.length / 3 - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const l = gen[mid * 3]!;
    const c = gen[mid * 3 + 1]!;
    if (l < line || (l === line && c <= col)) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0 || gen[found * 3]! !== line) return null;
  const site = gen[found * 3 + 2]!;
  return site < 0 ? null : site;
}

/** Where a goroutine stands, for the page: the innermost model function and the outer ones. */
export interface Standing {
  /** The site shown: the innermost one in the kubelet's own code, else the innermost one. */
  site: number;
  /** The function names from the outermost to the site's. */
  chain: string[];
}

/** From a stack's sites (innermost first) to what the page shows. */
export function standing(index: SourceIndex, sites: readonly number[]): Standing | null {
  if (sites.length === 0) return null;
  const inKubelet = sites.find((s) => index.files[index.fns[index.sites[s]!.fn]!.file]!.path.startsWith("src/kubelet/"));
  const site = inKubelet ?? sites[0]!;
  const from = sites.indexOf(site);
  const chain = sites.slice(from).map((s) => index.fns[index.sites[s]!.fn]!.name).reverse();
  return { site, chain: chain.filter((name, i) => i === 0 || name !== chain[i - 1]) };
}

/** The release tag of a kubelet version: "1.20" → "v1.20.0", "1.22.3" → "v1.22.3". */
export function releaseTag(version: string): string {
  const parts = version.replace(/^v/, "").split(".");
  return `v${parts[0] ?? "1"}.${parts[1] ?? "0"}.${parts[2] ?? "0"}`;
}

/** The upstream file at the kubelet's release tag on GitHub, or null when the model names none. */
export function upstreamUrl(file: SourceFile, version: string): string | null {
  return file.upstream === null ? null : `https://github.com/kubernetes/kubernetes/blob/${releaseTag(version)}/${file.upstream}`;
}
