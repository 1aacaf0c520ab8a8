// The WebSocket token: what a stream connection presents in `authorize` to use the account
// channels (sandbox/streams/). The token is the state's own, bound to the caller's account.
import type { Answer } from '../answer.ts';
import { type CallContext, caller, ok } from '../context.ts';

export function issueStreamToken(context: CallContext): Answer {
  const { account } = caller(context);
  return ok({ websocket_token: context.state.streamToken(account.id) });
}
