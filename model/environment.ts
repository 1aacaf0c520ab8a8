// The environment variables our programs read, named once at the bottom of the layers, so that
// every layer above takes them from here: txc (src/cli), the sandbox's printout, `npm start`, the
// contract suite, the bench and the tests. Code a reader copies (the README, the docs samples)
// writes them out; test/environment-names.test.ts holds it to these names. Nothing else of the
// document model comes with this module: the package's txc bin ships it.

/** Where to call and as whom: txc, the README program, the docs samples, the contract suite. */
export const environmentVariables = {
  baseUrl: 'TXC_BASE_URL',
  apiKey: 'TXC_API_KEY',
  apiSecret: 'TXC_API_SECRET',
  /** The fiat gateway's token (issueJwtToken's data.token), for the operations it authorises. */
  gatewayToken: 'TXC_GATEWAY_TOKEN',
} as const;

/** Where the docs' stream samples connect, and the WebSocket token they authorize with. */
export const streamVariables = {
  url: 'TXC_STREAM_URL',
  token: 'TXC_STREAM_TOKEN',
} as const;

/** The contract suite's settings (docs/guides/contract-tests.md); `npm run contract`'s flags set some. */
export const contractVariables = {
  /** `mock`, `sandbox` or an http(s) origin. */
  target: 'CONTRACT_TARGET',
  /** A file for JUnit XML. */
  junit: 'CONTRACT_JUNIT',
  /** The property tests' seed, and how many runs they make. */
  seed: 'CONTRACT_SEED',
  runs: 'CONTRACT_RUNS',
  /** `1`: also call the write operations on a target. */
  allowWrites: 'CONTRACT_ALLOW_WRITES',
  /** A plan the target knows: invest, and the history filtered by plan. */
  planId: 'CONTRACT_PLAN_ID',
  /** A market the target lists: cancel all (a write). */
  market: 'CONTRACT_MARKET',
  /** An asset the key holds: the main and collateral balances. */
  ticker: 'CONTRACT_TICKER',
  /**
   * The streams' part: a ws(s) URL of a deployment's WebSocket endpoint (the HTTP target's origin
   * is not its stream endpoint upstream, so it is given apart). Unset: the stream mock for `mock`,
   * `<the sandbox's origin>/ws` for `sandbox`, and no stream checks for a URL target.
   */
  streamTarget: 'CONTRACT_STREAM_TARGET',
  /** A WebSocket token for a stream target's account channels (authorize); without it, public channels only. */
  streamToken: 'CONTRACT_STREAM_TOKEN',
  /** Opt-in response-time budget in ms: a slower answer fails the max_response_time check. */
  maxResponseMs: 'CONTRACT_MAX_RESPONSE_MS',
  /**
   * `1`, set by `npm run contract -- --self-check` for its vitest alone (and unset for any other
   * run): the suite's checks of itself call no target of the run, each starts its own, so the run
   * starts none.
   */
  selfCheck: 'CONTRACT_SELF_CHECK',
  /**
   * The APIs (document names, comma-separated) whose Prisms a run starts, for a run filtered to
   * their operations; unset: every document's. Set by `npm run contract -- --api <name>`.
   */
  apis: 'CONTRACT_APIS',
} as const;
