// How the long-running commands (`serve`, `play --serve`) are stopped. Its own module, with no
// node:http in it: every command file is loaded at start-up, the servers only when they run.

const STOPS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Resolves on the first SIGINT, SIGTERM or SIGHUP (the terminal closed). */
export function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      for (const s of STOPS) process.off(s, stop);
      resolve();
    };
    for (const s of STOPS) process.on(s, stop);
  });
}
