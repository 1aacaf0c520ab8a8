// The kill switch: a timer per market that, unless set again in time, cancels the market's
// open orders of the kinds it names when it runs out on the sandbox's clock (exchange.ts
// `settle`, applied before every call).
import type { Answer } from '../answer.ts';
import { type CallContext, caller, ok, refuse, refuseWorded } from '../context.ts';
import { seconds } from '../orders.ts';
import type { KillSwitchTimer } from '../state.ts';

const timerView = ({ market, startTime, cancellationTime, types }: KillSwitchTimer) => ({
  market,
  startTime,
  cancellationTime,
  types,
});

/** The order kinds the document lists (OrderKind), which a timer without `types` cancels. */
function everyKind(context: CallContext): string[] {
  const { documents, facts } = context.operation;
  return documents.schemaEnum(facts.api, 'OrderKind').map(String);
}

export interface KillSwitchFields {
  market: string;
  timeout: string | null;
  types?: readonly string[] | null;
}

/**
 * Sets a market's timer to run out `timeout` seconds from now (5 to 600), replacing the one
 * running; a `null` timeout removes it. The document does not show the answer to a removal:
 * the sandbox answers the timer as it stood (one that starts and runs out now when none ran).
 */
export function armKillSwitch(context: CallContext, body: KillSwitchFields): Answer {
  const { account } = caller(context);
  if (!context.state.markets.has(body.market)) return refuse(context, 'marketNotAvailable');
  const types = body.types && body.types.length > 0 ? [...body.types] : everyKind(context);
  const now = Math.floor(seconds(context.now));
  if (body.timeout === null) {
    const running = account.killSwitches.get(body.market);
    account.killSwitches.delete(body.market);
    return ok(
      timerView(
        running ?? { market: body.market, startTime: now, cancellationTime: now, types, runsOutAt: 0 },
      ),
    );
  }
  const timeout = Number(body.timeout);
  if (timeout < 5) return refuse(context, 'timeoutTooShort');
  if (timeout > 600) return refuseWorded(context, 'timeout', 'timeoutTooLong', {}, 'timeoutTooShort');
  const timer: KillSwitchTimer = {
    market: body.market,
    startTime: now,
    cancellationTime: now + timeout,
    types,
    runsOutAt: context.now + timeout * 1000,
  };
  account.killSwitches.set(body.market, timer);
  return ok(timerView(timer));
}

/** The timers running, of one market or of all. */
export function readKillSwitches(context: CallContext, body: { market?: string }): Answer {
  const { account } = caller(context);
  if (body.market !== undefined && !context.state.markets.has(body.market)) {
    return refuse(context, 'marketNotAvailable');
  }
  const timers = [...account.killSwitches.values()].filter(
    (timer) => body.market === undefined || timer.market === body.market,
  );
  return ok(timers.map(timerView));
}
