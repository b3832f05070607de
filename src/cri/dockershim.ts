// Models how docker, behind the kubelet's dockershim (pkg/kubelet/dockershim, removed in 1.24),
// reported a container whose start failed: the variant dockerFailedStartStaysCreated, race R07.
//
// Docker keeps such a container in its "created" state (it never started, so its StartedAt and
// FinishedAt stay zero) and records exit code 128 and the error. The two CRI views then disagree:
// - ListContainers: dockershim's toRuntimeAPIContainerState reads `docker ps`' status text, which
//   says "Created", so the container is CONTAINER_CREATED (what PLEG's relist sees);
// - ContainerStatus: dockershim's ContainerStatus inspects it and takes "Case 2: container has
//   failed to start; it has a zero finishedAt time, but a non-zero exit code" to be EXITED, reason
//   ContainerCannotRun, startedAt = finishedAt = createdAt, message = the docker error.
// Simplified: container IDs keep the runtime's own type ("containerd://"), not "docker://".
import type { ContainerStatus } from "./api.ts";
import type { RuntimeCore } from "./core.ts";
import { EXIT_CODE_START_ERROR } from "./container_process.ts";
import { CriError } from "./errors.ts";
import type { ContainerRecord } from "./store.ts";
import { toContainerStatus } from "./views.ts";

export const REASON_CONTAINER_CANNOT_RUN = "ContainerCannotRun";

/** StartContainer failed: the container stays CREATED with exit code 128 and docker's error. */
export function dockerStartFailed(rt: RuntimeCore, c: ContainerRecord): CriError {
  const daemonError = `OCI runtime create failed: ${c.program.startError}: unknown`;
  c.exitCode = EXIT_CODE_START_ERROR;
  c.message = daemonError;
  rt.store.touch();
  rt.emit("ContainerStartFailed", { pod: c.podKey, container: c.name, id: c.id, exitCode: c.exitCode, state: c.state });
  return new CriError("Unknown", `failed to start container "${c.id}": Error response from daemon: ${daemonError}`);
}

/** dockershim's ContainerStatus: a never-started container with a non-zero exit code is EXITED. */
export function dockershimContainerStatus(c: ContainerRecord): ContainerStatus {
  const status = toContainerStatus(c);
  if (c.state !== "CONTAINER_CREATED" || c.exitCode === 0) return status;
  return {
    ...status,
    state: "CONTAINER_EXITED",
    startedAtMs: c.createdAtMs,
    finishedAtMs: c.createdAtMs,
    reason: REASON_CONTAINER_CANNOT_RUN,
  };
}
