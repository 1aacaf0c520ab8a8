// The WebSocket token never shows: not in the client however it is inspected or serialized, not in
// a subscription, not in a hook's event, and not in an error, even when the server echoes it back
// in a refusal, a bad frame or an answer's id.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  createStreamClient,
  MalformedFrameError,
  StreamRequestError,
  UnknownAnswerError,
} from '../../src/streams/index.ts';
import { hookRecorder } from './stream-server.ts';
import { streamSuite } from './suite.ts';

const secret = 'ws-token-never-shown-0123456789abcdef';
const fresh = 'ws-token-fresh-never-shown-fedcba9876';

const { server, connect } = streamSuite();

/** Every way a value may be shown or logged. */
function shown(value: unknown): string[] {
  return [
    inspect(value, { depth: 10, showHidden: true }),
    JSON.stringify(value) ?? '',
    String(value),
    value instanceof Error ? `${value.message} ${value.stack}` : '',
  ];
}

function expectNoToken(value: unknown): void {
  for (const text of shown(value)) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(fresh);
  }
}

describe('the token', () => {
  it('is not in the client, its options or a live subscription', async () => {
    const client = connect({ token: secret });
    expect(client.options.token).toBe('[redacted]');
    expect(JSON.parse(JSON.stringify(client))).toMatchObject({
      kind: 'StreamClient',
      options: { token: '[redacted]' },
    });
    const subscription = client.subscribe('balanceSpot', ['USDT']);
    const connection = await server.nextConnection();
    const authorize = await connection.next();
    // It went where it belongs: the authorize request, and nowhere else.
    expect(authorize.params).toEqual([secret, 'public']);
    connection.confirm(authorize);
    connection.confirm(await connection.next());
    await subscription.ready;
    expectNoToken(client);
    expectNoToken(subscription);
    const withProvider = createStreamClient({ url: server.url, token: async () => fresh });
    expect(withProvider.options.token).toBe('provider');
    expectNoToken(withProvider);
    await withProvider.close();
  });

  it('a refusal that echoes it: scrubbed from the AuthorizationError, its cause and the hooks', async () => {
    const recorder = hookRecorder();
    const tokens = [secret, fresh];
    const client = connect({
      token: async () => tokens.shift() as string,
      hooks: recorder.hooks,
    });
    const asked = client.request('balanceSpot_request', []).catch((caught: unknown) => caught);
    const connection = await server.nextConnection();
    for (const token of [secret, fresh]) {
      const authorize = await connection.next();
      expect(authorize.params).toEqual([token, 'public']);
      connection.refuse(authorize, { code: 401, message: `token ${token} is not valid`, token });
    }
    const error = (await asked) as AuthorizationError;
    expect(error).toBeInstanceOf(AuthorizationError);
    const cause = error.cause as StreamRequestError;
    expect(cause).toBeInstanceOf(StreamRequestError);
    expect(cause.message).toContain('token [redacted] is not valid');
    expect(cause.body).toEqual({ code: 401, message: 'token [redacted] is not valid', token: '[redacted]' });
    expectNoToken(error);
    expectNoToken(cause);
    expectNoToken(recorder.events);
  });

  it('a bad frame or an answer`s id that echoes it: scrubbed from the error', async () => {
    const recorder = hookRecorder();
    const client = connect({ token: secret, hooks: recorder.hooks });
    const asked = client.request('balanceSpot_request', []);
    const connection = await server.nextConnection();
    connection.confirm(await connection.next());
    const request = await connection.next();
    const unknown = recorder.next('error');
    connection.send({ id: secret, result: null, error: null });
    const unknownError = (await unknown).error;
    expect(unknownError).toBeInstanceOf(UnknownAnswerError);
    expect((unknownError as UnknownAnswerError).id).toBe('[redacted]');
    connection.answer(request, {});
    await asked;
    const malformed = recorder.next('error');
    connection.sendRaw(`oops ${secret}`);
    const malformedError = (await malformed).error as MalformedFrameError;
    expect(malformedError).toBeInstanceOf(MalformedFrameError);
    expect(malformedError.excerpt).toBe('oops [redacted]');
    expectNoToken(unknownError);
    expectNoToken(malformedError);
    expectNoToken(recorder.events);
  });
});
