// The simulator's bounds on a scenario, in one place: each keeps a hostile or mistaken file from
// asking for unbounded work, and each is refused with a message that names it (docs/scenarios.md
// lists them). No imports, so the command line can check --until without loading the schema.

/** Pods in one scenario. */
export const MAX_PODS = 200;
/** Containers in all the scenario's pods together: init, regular and ephemeral. */
export const MAX_CONTAINERS = 1_000;
/** Timeline steps. */
export const MAX_STEPS = 2_000;
/** Expectations. */
export const MAX_EXPECTATIONS = 1_000;
/** The longest run a scenario (or --until) may ask for, in virtual time: 24h. */
export const MAX_UNTIL_MS = 24 * 60 * 60 * 1000;
/** YAML nesting: deeper than any real scenario (a kubectl manifest's managedFields reach about 15). */
export const MAX_DEPTH = 64;
/** Alias nodes in one file, and alias expansions when building the value (yaml's maxAliasCount). */
export const MAX_ALIASES = 100;
