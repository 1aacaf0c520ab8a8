// The fiat gateway: its token (issueJwtToken, a signed call) and the card token that token
// authorises (issueCardToken, on the gateway's own origin upstream, unsigned). What the operator
// does not show is the sandbox's own rule: a token lasts an hour, a card number is 13 to 19
// digits passing the Luhn check, and a card's token is derived from the account and the number.
import { createHash } from 'node:crypto';
import type { Answer } from '../answer.ts';
import { type CallContext, caller, gatewayCaller, ok, refuse } from '../context.ts';
import { seconds } from '../orders.ts';

/** How long a gateway token the sandbox issues is taken (the operator does not show it). */
export const gatewayTokenSeconds = 3600;

export function issueGatewayToken(context: CallContext): Answer {
  const { account } = caller(context);
  const expiresAt = Math.floor(seconds(context.now)) + gatewayTokenSeconds;
  return ok({ data: { token: context.state.gatewayToken(account.id, expiresAt), expires_at: expiresAt } });
}

/** Whether a card number is 13 to 19 digits whose Luhn sum is a multiple of 10. */
export function isCardNumber(text: string): boolean {
  if (!/^[0-9]{13,19}$/.test(text)) return false;
  let sum = 0;
  for (let index = 0; index < text.length; index++) {
    let digit = Number(text[text.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The card token of a valid card number, the same for the same account and card; a number that
 * is not a card's is refused with the operation's `invalidCardNumber` example. The account is the
 * one whose gateway token authorised the call.
 */
export function issueCardToken(context: CallContext, body: { cardNumber: string }): Answer {
  const account = gatewayCaller(context);
  if (!isCardNumber(body.cardNumber)) return refuse(context, 'invalidCardNumber');
  const digest = createHash('sha256').update(`${account.id}:${body.cardNumber}`).digest('hex');
  const example = context.operation.successExample();
  return { status: example?.status ?? 201, body: { data: { token: `ct_${digest.slice(0, 16)}` } } };
}
