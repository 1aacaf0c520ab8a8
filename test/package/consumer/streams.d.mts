// The declaration of streams.mjs, for the package test that also runs it in process.
export interface StreamsUsed {
  /** What a request through a connection the server refuses gave: its error's and its cause's. */
  refused: unknown;
  notInRoot: boolean;
  /** The WebSocket each connection was, as the open hook says: `global`, `undici`. */
  webSockets: string[];
  pong: unknown;
  time: unknown;
  update: unknown;
  afterUnsubscribe: unknown;
  books: { bids: [string, string][]; asks: [string, string][]; updateId: number | undefined }[];
  resnapshots: string[];
  afterBook: unknown;
}

export function useStreams(url: string | undefined): Promise<StreamsUsed>;
