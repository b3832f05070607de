// How long a test, a hook, a child process or a page may take before the suite calls it hung. It
// is not a bound on speed: no test asserts wall time (the machine is shared, and a timed test
// fails on a loaded host; speed lives in `npm run bench`). It only turns a real hang (a child that
// never exits, a page that never draws) into a failure that names the test, instead of a suite
// that never ends. An hour is far beyond what any test takes on the slowest host that runs the
// suite at all (the whole suite takes about 4 minutes on an idle 2-core machine).
export const HANG_MS = 60 * 60_000;
