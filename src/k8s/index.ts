// The API types the models share: a subset of core/v1 with apiserver defaulting and pod helpers.
export * from "./pod.ts";
export * from "./defaults.ts";
export * from "./image.ts";
export * from "./podutil.ts";
