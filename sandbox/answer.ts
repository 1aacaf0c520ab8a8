// What the sandbox answers a request with: the one shape every handler, refusal and the server
// itself produce, so that an answer can pass from any of them to the response unchanged.

export interface Answer {
  status: number;
  /** The JSON body; none when undefined. */
  body?: unknown;
  /** Headers beside the content type. */
  headers?: Record<string, string>;
}
