// The tool version written into every trace's "run" record and printed by --version.
export const VERSION = "0.1.0";
