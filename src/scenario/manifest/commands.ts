// What a container's command line says about how long it runs, for the scenario built around a
// manifest: `sleep 30` exits after 30 s, `sleep infinity` or `tail -f` never does, anything else is
// the image's business and unknown. Only what a command plainly says is read; a shell script is
// read for its last `sleep` and for the usual ways of never ending.
import { isObj, list, type Raw } from "../podindex.ts";

export type RunTime = { kind: "exits"; afterSeconds: number } | { kind: "endless" } | { kind: "unknown" };

/** A `sleep` this long or longer is taken as "never ends" within a run (the longest run is 24h). */
const LONGEST_SLEEP_SECONDS = 24 * 3600;

const ENDLESS = [/\bsleep\s+inf(inity)?\b/, /\btail\s+(-\w*f\w*\s|--follow)/, /\bwhile\s+(true|:|\[\s*1\s*\])/, /\bsleep\s+(\d+[smhd]?\s+)*\d+d\b/];

/** `sleep N`, `sleep 30s`, `sleep 2m`, `sleep 1h` as seconds. */
function sleepSeconds(word: string, unit: string | undefined): number {
  const n = Number(word);
  return unit === "m" ? n * 60 : unit === "h" ? n * 3600 : unit === "d" ? n * 86_400 : n;
}

export function commandRunTime(container: Raw): RunTime {
  const words = [...list(container.command), ...list(container.args)].filter((w): w is string => typeof w === "string");
  if (words.length === 0) return { kind: "unknown" };
  const line = words.join(" ");
  if (ENDLESS.some((re) => re.test(line))) return { kind: "endless" };
  const sleeps = [...line.matchAll(/\bsleep\s+(\d+)([smhd]?)\b/g)];
  if (sleeps.length === 0) return { kind: "unknown" };
  const last = sleeps.at(-1)!;
  const seconds = sleepSeconds(last[1]!, last[2] === "" ? undefined : last[2]);
  return seconds >= LONGEST_SLEEP_SECONDS ? { kind: "endless" } : { kind: "exits", afterSeconds: seconds };
}

/** The regular containers of a pod value. */
export function regularContainers(pod: Raw): Raw[] {
  return isObj(pod.spec) ? list(pod.spec.containers).filter(isObj) : [];
}
