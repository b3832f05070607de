// Models PodValidationOptions (pkg/apis/core/validation/validation.go) and the options the pod
// strategy passes (pkg/api/pod/util.go GetValidationOptionsFromPodSpecAndMeta), for the options
// that change a check this port makes.

export interface PodValidationOptions {
  /** The object is a Pod, not a pod template: hostPort must equal containerPort under hostNetwork. */
  readonly resourceIsPod: boolean;
  /** PodLifecycleSleepActionAllowZero: a preStop sleep of 0 seconds is allowed. */
  readonly allowPodLifecycleSleepActionZeroValue: boolean;
  /** RelaxedEnvironmentVariableValidation: any printable ASCII but "=" in env var names. */
  readonly allowRelaxedEnvironmentVariableValidation: boolean;
  /** Sidecar containers may carry a resizePolicy (InPlacePodVerticalScaling for sidecars). */
  readonly allowSidecarResizePolicy: boolean;
  /** PodDeletionCost off: an unparsable controller.kubernetes.io/pod-deletion-cost is tolerated. */
  readonly allowInvalidPodDeletionCost: boolean;
}

/**
 * What the apiserver's pod strategy passes for a new pod. Simplification: the feature gates
 * behind the allow* options are taken at their upstream defaults of releases up to 1.31 (off),
 * not derived from the scenario's kubelet version; the kubelet's own gates do not drive them.
 */
export const APISERVER_POD_OPTIONS: PodValidationOptions = {
  resourceIsPod: true,
  allowPodLifecycleSleepActionZeroValue: false,
  allowRelaxedEnvironmentVariableValidation: false,
  allowSidecarResizePolicy: false,
  allowInvalidPodDeletionCost: false,
};

/** validation.PodValidationOptions{}: what the kubelet passes for a static pod (every option off). */
export const ZERO_POD_OPTIONS: PodValidationOptions = {
  resourceIsPod: false,
  allowPodLifecycleSleepActionZeroValue: false,
  allowRelaxedEnvironmentVariableValidation: false,
  allowSidecarResizePolicy: false,
  allowInvalidPodDeletionCost: false,
};
