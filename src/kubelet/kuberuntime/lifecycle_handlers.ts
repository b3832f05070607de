// Models pkg/kubelet/lifecycle/handlers.go (handlerRunner.Run) and the exec path under it:
// kuberuntime_container.go RunInContainer and cri-client's ExecSync, which turns a non-zero exit
// code into an error ("command '...' exited with N: ..."), v1.29 line.
//
// Simplified: an HTTP hook is answered by the container's program through the runtime's
// ContainerNetwork (no real HTTP); the tcpSocket handler, deprecated and never run upstream, falls
// into the invalid-handler branch as upstream's switch does.
import { sleep, type Proc } from "../../sim/index.ts";
import type { Container, LifecycleHandler, Pod } from "../../k8s/pod.ts";
import { CriError } from "../../cri/errors.ts";
import type { ContainerNetwork, RuntimeService } from "../../cri/services.ts";
import type { HookType } from "../../cri/program.ts";
import { formatPod } from "../container/helpers.ts";
import type { ContainerID } from "../container/runtime.ts";

/** The output and error of a handler, as HandlerRunner.Run returns them; err null on success. */
export interface HandlerResult {
  msg: string;
  err: string | null;
}

export class HandlerRunner {
  constructor(
    private readonly runtimeService: RuntimeService,
    private readonly network: ContainerNetwork,
    /** How long an HTTP hook may take before the kubelet's client gives up. */
    private readonly httpTimeoutMs = 120_000,
  ) {}

  /** Run runs the handler of a postStart or preStop hook against the container. */
  *Run(containerID: ContainerID, pod: Pod, container: Container, handler: LifecycleHandler, hook: HookType): Proc<HandlerResult> {
    if (handler.exec !== undefined) {
      const command = handler.exec.command ?? [];
      const { output, err } = yield* this.RunInContainer(containerID, command, hook);
      if (err === null) return { msg: "", err: null };
      const msg = `Exec lifecycle hook ([${command.join(" ")}]) for Container ${JSON.stringify(container.name)} in Pod ${JSON.stringify(formatPod(pod))} failed - error: ${err}, message: ${JSON.stringify(output)}`;
      return { msg, err };
    }
    if (handler.httpGet !== undefined) {
      const out = yield* this.network.httpHook(containerID.id, hook, this.httpTimeoutMs);
      if (out.result === "success") return { msg: "", err: null };
      const err = out.output;
      const msg = `HTTP lifecycle hook (${handler.httpGet.path ?? ""}) for Container ${JSON.stringify(container.name)} in Pod ${JSON.stringify(formatPod(pod))} failed - error: ${err}`;
      return { msg, err };
    }
    if (handler.sleep !== undefined) {
      yield* sleep(handler.sleep.seconds * 1000, "lifecycle sleep handler");
      return { msg: "", err: null };
    }
    const err = `invalid handler: ${JSON.stringify(handler)}`;
    return { msg: `Cannot run handler: ${err}`, err };
  }

  /** RunInContainer: ExecSync with no timeout; stdout and stderr appended; a non-zero exit is an error. */
  *RunInContainer(containerID: ContainerID, cmd: readonly string[], hook: HookType): Proc<{ output: string; err: string | null }> {
    const resp = yield* this.runtimeService.ExecSync(containerID.id, cmd, 0, { hook });
    if (resp instanceof CriError) return { output: "", err: resp.message };
    const output = resp.stdout + resp.stderr;
    if (resp.exitCode !== 0) return { output, err: `command '${cmd.join(" ")}' exited with ${resp.exitCode}: ${resp.stderr}` };
    return { output, err: null };
  }
}
