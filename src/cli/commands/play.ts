// `kubelet-sim play RACE-OR-FILE`: a race as a game in the browser, the learner as the scheduler.
import type { ArgumentsCamelCase, Argv } from "yargs";
import { EXIT_OK, EXIT_USAGE, UserError } from "../exit.ts";
import { processIo } from "../io.ts";
import { stopSignal } from "../signals.ts";
import { docPath } from "../package_files.ts";
import type { CommandFactory } from "./index.ts";

interface Args {
  level?: string;
  out?: string;
  serve: boolean;
  port: number;
  levels: boolean;
  json: boolean;
}

export const DEFAULT_PLAY_PORT = 8765;

export const playCommand: CommandFactory = (ctx) => ({
  command: "play [level]",
  describe: "Play a race in the browser: the simulator runs in one self-contained page; you set the timing and choose which goroutine runs",
  builder: (y: Argv) =>
    y
      .positional("level", { type: "string", describe: "a race id (r01 … r25: its level; t0: the level that teaches the controls) or a scenario file (any invariant's violation wins)" })
      .option("out", { type: "string", describe: "where to write the page (default: <level>-play.html here)" })
      .option("serve", { type: "boolean", default: false, describe: "serve the page on 127.0.0.1 instead of writing it" })
      .option("port", { type: "number", default: DEFAULT_PLAY_PORT, describe: "the port --serve listens on (0: any free port)" })
      .option("levels", { type: "boolean", default: false, describe: "list the levels instead: each race's level and what its stored shortest win changes" })
      .option("json", { type: "boolean", default: false, describe: "with --levels: one JSON object per line" })
      .example("$0 play r05", "write r05-play.html, then open it in a browser")
      .example("$0 play r05 --serve --port 0", "serve it on 127.0.0.1 until Ctrl-C")
      .example("$0 play scenarios/default.yaml --out default.html", "play any scenario file")
      .example("$0 play --levels --json", "one line per level: its race, and its shortest win's timing changes and choices away from fifo")
      .epilogue(`The page's Export gives a run record that \`kubelet-sim replay\` reproduces. Exit 2 for an unknown race or a bad file. See ${docPath("teaching.md")}.`),
  handler: async (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    const io = processIo();
    if (argv.levels && (argv.level !== undefined || argv.serve || argv.out !== undefined)) throw new UserError("--levels lists the levels; it takes no level, --out or --serve", EXIT_USAGE);
    if (!argv.levels && argv.level === undefined) throw new UserError("name a level (a race id r01 … r25, t0 for the controls, or a scenario file), or pass --levels", EXIT_USAGE);
    if (argv.json && !argv.levels) throw new UserError("--json goes with --levels", EXIT_USAGE);
    // Loaded here, not at the top: the models are needed only when something runs (--help stays fast).
    const { listLevels, servePlayPage, writePlayPage } = await import("../play.ts");
    if (argv.levels) {
      ctx.exitCode = listLevels(argv.json, io);
      return;
    }
    const req = { level: argv.level!, out: argv.out ?? null, servePort: argv.serve ? argv.port : null };
    if (!argv.serve) {
      ctx.exitCode = writePlayPage(req, io);
      return;
    }
    const listening = await servePlayPage(req, io);
    await stopSignal();
    await listening.close();
    ctx.exitCode = EXIT_OK;
  },
});
