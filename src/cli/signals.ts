// How the long-running commands (`serve`, `play --serve`) are stopped. Its own module, with no
// node:http in it: every command file is loaded at start-up, the servers only when they run.

/** Resolves on the first SIGINT or SIGTERM. */
export function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
