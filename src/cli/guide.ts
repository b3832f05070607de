// `--explain`: a few comment lines before each output saying what it is and how to read it, for
// someone who has never seen kubelet-sim (npm start uses it). Every line starts with "# ".

/** What each lane of the timeline is, in the kubelet's own words. */
const LANES: ReadonlyArray<readonly [string, string]> = [
  ["scenario", "a step of the scenario's timeline (create, delete, restartKubelet...)"],
  ["apiserver", "the API server: writes, watches; `kubectl get:` is the pod as `kubectl get pods` shows it"],
  ["reflector", "the kubelet's list/watch of the API server"],
  ["config", "the kubelet's pod config: turns API changes into ADD/UPDATE/DELETE for the syncLoop"],
  ["kubelet", "the syncLoop and the pod sync functions (SyncPod, SyncTerminatingPod), and Events"],
  ["podworker", "the pod's own worker goroutine: UpdatePod queues work, SyncPod runs it"],
  ["kuberuntime", "computePodActions and SyncPod: what to create, start or kill"],
  ["runtime", "the simulated container runtime (CRI calls, containers exiting)"],
  ["pleg", "the pod lifecycle event generator: relists the runtime every second, reports changes"],
  ["cache", "the pod status cache PLEG fills and pod workers read"],
  ["prober", "liveness, readiness and startup probes"],
  ["status", "the status manager: writes pod status back to the API server"],
  ["check", "an expectation of the scenario being decided"],
];

/** The opening lines: what was run, and how to get these bytes again. */
export function explainRun(name: string, file: string, description: string): string {
  const lines = [
    `You are looking at one simulated run of scenario "${name}" (${file}):`,
    ...wrap(description.trim() === "" ? "(the scenario has no description)" : description, 94).map((l) => `  ${l}`),
    "",
    "Everything below is virtual time: a run takes milliseconds of host time, and the same scenario,",
    "seed and strategy give the same bytes on every machine. Paste the `# replay:` line above to",
    "see this run again; edit a timing in the YAML (e.g. pullTime) and run it again to see what moves.",
  ];
  return `${comment(["", ...lines])}\n`;
}

/** The lines before one output; `lanes` are the lanes the timeline shows, in order of appearance. */
export function explainFormat(format: string, lanes: readonly string[]): string {
  switch (format) {
    case "text":
      return comment([
        "THE TIMELINE: one line per step: virtual time, lane (the kubelet component that acted), pod, what happened.",
        "Lanes here:",
        ...LANES.filter(([lane]) => lanes.includes(lane)).map(([lane, what]) => `  ${lane.padEnd(11)}  ${what}`),
        "(--verbosity normal or all shows more steps; --pod NAME shows one pod.)",
      ]);
    case "events":
      return comment(["THE EVENTS: the Events section `kubectl describe pod` would print at the end of the run."]);
    case "pods":
      return comment(["THE PODS: `kubectl get pods -w`: a row each time READY, STATUS or RESTARTS changed."]);
    case "mermaid":
      return comment(["A MERMAID SEQUENCE DIAGRAM: paste it into a ```mermaid block (GitHub renders it)."]);
    default:
      return "";
  }
}

export function explainSummary(): string {
  return comment(["THE EXPECTATIONS: what the scenario's `expect:` asked for, and whether it held (exit code 0, else 1)."]);
}

/** The lanes a rendered timeline shows, in order of first appearance (its second column). */
export function lanesOf(timeline: string): string[] {
  const seen: string[] = [];
  for (const line of timeline.split("\n")) {
    const m = /^\s*\d[\dhms.]*s {2}(\S+)/.exec(line);
    if (m !== null && !seen.includes(m[1]!)) seen.push(m[1]!);
  }
  return seen;
}

function comment(lines: readonly string[]): string {
  return lines.map((l) => (l === "" ? "#" : `# ${l}`)).join("\n") + "\n";
}

function wrap(text: string, widthChars: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line !== "" && line.length + 1 + word.length > widthChars) {
      out.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") out.push(line);
  return out;
}
