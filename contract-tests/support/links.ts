// The flows between operations, as the documents declare them with OpenAPI `links`: from an
// operation's success answer to the operations its values lead to (an order's id to its deals,
// the open orders and cancelling it; an investment's id to the history; …). The stateful runner
// (stateful.contract.ts) walks them; nothing here names an operation.
import { isRecord, pointerSteps } from '../../model/json.ts';
import type { Model, OperationId } from './documents.ts';
import { operationIds } from './documents.ts';

export interface Link {
  /** The link's name in the document, as a failure names it. */
  name: string;
  from: OperationId;
  status: number;
  to: OperationId;
  description: string;
  /** The target's body fields, each a literal or a runtime expression. */
  requestBody: Readonly<Record<string, unknown>>;
}

/** Every link of every success answer of the documents. */
export function documentLinks(model: Model): Link[] {
  const links: Link[] = [];
  for (const from of operationIds) {
    const responses = model.model(from).operation.responses;
    if (!isRecord(responses)) continue;
    for (const [status, response] of Object.entries(responses)) {
      if (!isRecord(response) || !isRecord(response.links)) continue;
      for (const [name, link] of Object.entries(response.links)) {
        if (!isRecord(link) || typeof link.operationId !== 'string') continue;
        links.push({
          name,
          from,
          status: Number(status),
          to: link.operationId as OperationId,
          description: typeof link.description === 'string' ? link.description : '',
          requestBody: isRecord(link.requestBody) ? link.requestBody : {},
        });
      }
    }
  }
  return links;
}

/** A JSON pointer's value in `value` (`/orderId`, `/data/0/id`, `/USDT/main_balance`). */
export function pointer(value: unknown, path: string): unknown {
  let current = value;
  for (const key of pointerSteps(path)) {
    current =
      isRecord(current) || Array.isArray(current) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

/**
 * The target's body: each `$response.body#/…` or `$request.body#/…` expression replaced by the
 * value it points at in the answer or the request that led here; literals kept.
 */
export function linkBody(link: Link, exchange: Exchange): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(link.requestBody).map(([field, expression]) => [field, linkValue(expression, exchange)]),
  );
}

/** A call and its answer, which a link's runtime expressions read. */
export interface Exchange {
  request: Record<string, unknown>;
  response: unknown;
}

const runtimeExpression = /^\$(request|response)\.body#(\/.*)?$/;

/** A `$response.body#/…` or `$request.body#/…` expression's value; any other value as it is. */
export function linkValue(expression: unknown, exchange: Exchange): unknown {
  if (typeof expression !== 'string') return expression;
  const match = runtimeExpression.exec(expression);
  if (!match) return expression;
  const source = match[1] === 'request' ? exchange.request : exchange.response;
  return pointer(source, match[2] ?? '');
}

/** Whether a value is (or holds, in `{…}`) an expression that reads the answer. */
export const readsResponse = (value: unknown): boolean =>
  typeof value === 'string' && value.includes('$response.');
