// Every time limit on a process that the tests, the contract suite or `npm start` starts, in one
// place: the vitest configs, the spawn helpers and the dev servers read them from here. They are
// limits, not expectations: sized so that a healthy run on a loaded two-core machine (CI's, or
// `npm run test:loaded`) never reaches them, and a hung one still ends. Nothing asserts how fast
// anything is; `npm run bench` measures that.
//
// TXC_TIME_SCALE multiplies them all (a slower machine: `TXC_TIME_SCALE=3 npm test`).

const scale = (() => {
  const value = Number(process.env.TXC_TIME_SCALE ?? '1');
  return Number.isFinite(value) && value > 0 ? value : 1;
})();
const scaled = (ms: number) => Math.round(ms * scale);

export const timeLimits = {
  /** A test that runs in process: calls to local servers, at most a few seconds of real waits. */
  unitTestMs: scaled(30_000),
  /** A test that starts processes (tsx, txc, npm start, Prism, a vitest run, tsc, a browser). */
  processTestMs: scaled(300_000),
  /** A hook that builds or starts what the tests of a file share (servers, a site, a package). */
  hookMs: scaled(360_000),
  /** A server process from spawn until it answers HTTP (Prism, the sandbox, `npm start`'s children). */
  serverStartMs: scaled(120_000),
  /** A program run to completion by a test (txc, a script, a runtime of the package tests). */
  runMs: scaled(240_000),
  /** From SIGTERM to SIGKILL when a process is stopped. */
  stopGraceMs: scaled(5_000),
  /**
   * A WebSocket message a check waits for (an answer, the next update, a connection opening): the
   * stream mock answers at once and pushes every channel at least every 1.5 s; a deployment's
   * slowest stated interval is the same.
   */
  streamMessageMs: scaled(20_000),
  /** Prism reloading a changed document in place before `npm start` restarts it instead. */
  mockReloadMs: scaled(15_000),
} as const;
