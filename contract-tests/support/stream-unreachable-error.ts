// A stream target that could not be connected to: the handshake was refused (an HTTP answer in
// place of the upgrade, such as a server without the endpoint), failed or did not finish in time.

export class StreamUnreachableError extends Error {
  override readonly name = 'StreamUnreachableError';
  /** The URL, without credentials. */
  readonly url: string;
  /** The HTTP status that refused the upgrade, when one did. */
  readonly status: number | undefined;

  constructor(url: string, reason: string, status?: number) {
    super(`the stream endpoint ${url} could not be connected to: ${reason}`);
    this.url = url;
    this.status = status;
  }
}
