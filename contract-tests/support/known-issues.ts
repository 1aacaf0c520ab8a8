// Violations Prism 5.14 reports wrongly, recognised from the document rather than listed by
// hand. Prism validates with pre-2020-12 array semantics: it ignores `prefixItems` and applies
// `items: false` to every element, so an array that matches its 3.1 schema (the ping answer)
// is reported as "boolean schema is false" at each prefixed index. ajv (2020-12) still
// validates those bodies in full; self-test.contract.ts notices when Prism stops doing this.
import { prismViolations, type Violation } from './clients.ts';
import type { Json, Model, OperationId } from './documents.ts';

function schemaAt(schema: Json, path: string[]): Json {
  let node = schema;
  for (const part of path) {
    if (node === undefined) return undefined;
    if (/^\d+$/.test(part) && (node.prefixItems || node.items)) {
      node = node.prefixItems?.[Number(part)] ?? node.items;
    } else node = node.properties?.[part] ?? node.additionalProperties;
  }
  return node;
}

/** Whether a response violation is Prism misreading `prefixItems` in a declared response schema. */
export function isPrismPrefixItemsMisread(
  model: Model,
  operationId: OperationId,
  violation: Violation,
): boolean {
  const [where, part, ...path] = violation.location;
  if (where !== 'response' || part !== 'body' || !/boolean schema is false/.test(violation.message))
    return false;
  const index = path.at(-1);
  if (index === undefined || !/^\d+$/.test(index)) return false;
  return [...model.model(operationId).responses.values()].some(({ schema }) => {
    const parent = schema && schemaAt(schema, path.slice(0, -1));
    return Array.isArray(parent?.prefixItems) && Number(index) < parent.prefixItems.length;
  });
}

export function withoutKnownIssues(
  model: Model,
  operationId: OperationId,
  violations: Violation[],
): Violation[] {
  return violations.filter((violation) => !isPrismPrefixItemsMisread(model, operationId, violation));
}

/**
 * Whether a failed call is a validating proxy's 500 made only of known Prism misreadings: the
 * upstream answer itself was valid, though the proxy did not pass it on.
 */
export function failedOnlyOnKnownIssues(
  model: Model,
  operationId: OperationId,
  outcome: { error?: { body?: unknown }; response?: { headers: { get(name: string): string | null } } },
): boolean {
  if (!outcome.error) return false;
  const violations = prismViolations(outcome.response?.headers, outcome.error.body);
  return violations.length > 0 && withoutKnownIssues(model, operationId, violations).length === 0;
}
