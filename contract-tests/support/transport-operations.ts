// The operations each transport's project runs the transport-bound files over (operations, typed,
// properties): every operation on the first transport, one of each wire shape on the others
// (wire-shapes.ts says why that is enough). Kept apart from transport-names.ts, which the vitest
// config and the runner import, so that they do not load the documents.
import type { Model, OperationId } from './documents.ts';
import { operationIds } from './documents.ts';
import { type TransportName, transportNames } from './transport-names.ts';
import { sampledOperations } from './wire-shapes.ts';

/** The operations `transport`'s project calls, in the documents' order. */
export function operationsOn(transport: TransportName, model: Model): readonly OperationId[] {
  if (transport === transportNames[0]) return operationIds;
  const sample = sampledOperations(model);
  return operationIds.filter((operationId) => sample.has(operationId));
}
