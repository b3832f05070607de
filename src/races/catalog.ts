// The races kubelet-sim reproduces: each a scenario under scenarios/races/, run once with the
// buggy kubelet and once with the fixed one, and an invariant that tells them apart. The teaching
// pages (docs/races/) and the tests read this table.
import { join } from "node:path";
import { loadScenarioFile } from "../scenario/index.ts";
import type { Scenario } from "../scenario/resolve.ts";
import { withKubeletVersion } from "../scenario/variants.ts";

/** How one side of a race is run: a kubelet version, and scenario variants (model switches). */
export interface RaceSide {
  label: string;
  kubeletVersion?: string;
  variants?: Record<string, boolean>;
}

export interface RaceEntry {
  id: string;
  title: string;
  /** The scenario file, relative to the repository root. */
  file: string;
  /** The pod whose story the diagrams follow. */
  pod: string;
  invariant: string;
  buggy: RaceSide;
  fixed: RaceSide;
}

export const RACES: readonly RaceEntry[] = [
  {
    id: "R02",
    title: "Before 1.22, cleanup loops took \"not started yet\" for \"terminated\"",
    file: "scenarios/races/r02-pw-not-started-treated-as-terminated.yaml",
    pod: "default/web",
    invariant: "container-start-after-pod-deleted",
    buggy: { label: "kubelet 1.21", kubeletVersion: "1.21" },
    fixed: { label: "kubelet 1.22", kubeletVersion: "1.22" },
  },
];

const ROOT = join(import.meta.dirname, "..", "..");

/** The race's scenario as one side runs it. */
export function raceScenario(race: RaceEntry, side: "buggy" | "fixed"): Scenario {
  const { scenario } = loadScenarioFile(join(ROOT, race.file));
  const s = race[side];
  let out = s.kubeletVersion === undefined ? scenario : withKubeletVersion(scenario, s.kubeletVersion);
  if (s.variants !== undefined) out = { ...out, kubelet: { ...out.kubelet, variants: { ...out.kubelet.variants, ...s.variants } } };
  return out;
}
