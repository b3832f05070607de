// Invariants added with issue 13's race infrastructure: R04, R06, R11 and R12 (see src/races/catalog.ts).
import type { InvariantInfo } from "./common.ts";
import { oneStaticPodPerFullName } from "./static_pod_full_name.ts";
import { shortenedGracePeriodHonoured } from "./grace_shortened.ts";
import { readyWithTerminalPhase, terminalPhaseBeforeContainersStopped } from "./terminal_phase_api.ts";

export const RACE_INVARIANTS_5: readonly InvariantInfo[] = [
  oneStaticPodPerFullName,
  shortenedGracePeriodHonoured,
  terminalPhaseBeforeContainersStopped,
  readyWithTerminalPhase,
];
