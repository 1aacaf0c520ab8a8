// What one frame from the server is: an answer to a request (`id`, `result`, `error`), an update
// (`id: null`, `method`, `params`), or neither. A frame over the size limit, not JSON, or of
// neither shape is a typed error; texts quoted from it are scrubbed of the token first.
import { FrameTooLargeError } from './errors/frame-too-large-error.ts';
import { MalformedFrameError } from './errors/malformed-frame-error.ts';

export type Frame =
  | { readonly type: 'answer'; readonly id: unknown; readonly result: unknown; readonly error: unknown }
  | { readonly type: 'update'; readonly method: string; readonly params: unknown };

/** How much of a bad frame an error quotes. */
const excerptLength = 120;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Whether the text is at most `limit` bytes as UTF-8 (counted only when it may not be). */
function withinLimit(text: string, limit: number): boolean {
  // A UTF-16 unit is one to three UTF-8 bytes: most frames are decided by their length alone.
  if (text.length > limit) return false;
  if (text.length * 3 <= limit) return true;
  return encoder.encode(text).byteLength <= limit;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The frame as a message of the protocol, or the error that says why it is not one. `data` is what
 * the WebSocket delivered: text, or bytes (ArrayBuffer or a view) read as UTF-8.
 */
export function readFrame(
  data: unknown,
  maxMessageBytes: number,
  scrub: (text: string) => string,
): Frame | FrameTooLargeError | MalformedFrameError {
  let text: string;
  if (typeof data === 'string') text = data;
  else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    const size = data.byteLength;
    if (size > maxMessageBytes) return new FrameTooLargeError(maxMessageBytes);
    text = decoder.decode(data);
  } else return new MalformedFrameError('neither text nor bytes', '');
  if (!withinLimit(text, maxMessageBytes)) return new FrameTooLargeError(maxMessageBytes);
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (cause) {
    return new MalformedFrameError('not JSON', scrub(text.slice(0, excerptLength)), cause);
  }
  if (isRecord(message)) {
    const { id } = message;
    if (id === null && typeof message.method === 'string' && 'params' in message) {
      return { type: 'update', method: message.method, params: message.params };
    }
    if (id !== null && id !== undefined && ('result' in message || 'error' in message)) {
      return { type: 'answer', id, result: message.result, error: message.error ?? null };
    }
  }
  return new MalformedFrameError('not a message of the protocol', scrub(text.slice(0, excerptLength)));
}
