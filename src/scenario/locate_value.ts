// Finding where a scenario file says something that only a later stage can judge (an invariant id
// the checker does not know), so that stage's error can be placed like the loader's own.
import { formatPath } from "./errors.ts";
import { isObj, list, type Raw } from "./podindex.ts";
import { locate } from "./positions.ts";
import { readSource } from "./source.ts";
import { parseYaml } from "./yaml.ts";

const CONDITION_KEYS = ["eventually", "never", "that"];

/** `file:line:col: expect[i].never: ` for the first expectation naming the invariant `id`, or `file: ` when none does. */
export function invariantPlace(file: string, id: string): string {
  const source = readSource(file);
  const yaml = source.ok ? parseYaml(source.text, file) : null;
  if (yaml === null || !yaml.ok) return `${file}: `;
  let path: PropertyKey[] | null = null;
  list(yaml.value.expect).forEach((e, i) => {
    if (path !== null || !isObj(e)) return;
    for (const k of CONDITION_KEYS) {
      const c = e[k];
      if (c === id) path = ["expect", i, k];
      else if (isObj(c) && (c as Raw).invariant === id) path = ["expect", i, k, "invariant"];
      if (path !== null) return;
    }
  });
  if (path === null) return `${file}: `;
  const { line, col } = locate(yaml.doc, yaml.lineCounter, path);
  return `${file}:${line}:${col}: ${formatPath(path)}: `;
}
