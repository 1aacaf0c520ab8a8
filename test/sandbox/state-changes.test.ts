// The documents' `x-sandbox-state` names and the sandbox's state changes match both ways: an
// operation naming a change the sandbox lacks (a typo, a change not written yet) would otherwise
// be found only when that operation is called, and a change no operation names is dead code.
import { describe, expect, it } from 'vitest';
import { type OperationDocument, projectDocuments } from '../../sandbox/document.ts';
import { stateChangeNames, transitionOf } from '../../sandbox/transitions.ts';

const operations = [...projectDocuments().operations.values()];
const named = operations.flatMap((operation) => {
  const change = operation.stateChange()?.change;
  return change ? [{ operation, change }] : [];
});

describe('the sandbox state changes the documents name', () => {
  it('exist, for every operation that names one', () => {
    expect(named.length).toBeGreaterThan(20);
    for (const { operation } of named) expect(() => transitionOf(operation), operation.id).not.toThrow();
    for (const { operation } of named) expect(transitionOf(operation), operation.id).toBeDefined();
  });

  it('are each named by an operation: the sandbox has none that nothing calls', () => {
    const used = new Set(named.map(({ change }) => change));
    expect(stateChangeNames.filter((name) => !used.has(name))).toEqual([]);
  });

  it('refuse a name the sandbox does not have, naming the operation', () => {
    const [first] = named;
    if (!first) throw new Error('no operation names a state change');
    const misspelt = Object.create(first.operation, {
      stateChange: { value: () => ({ change: `${first.change}Typo` }) },
    }) as OperationDocument;
    expect(() => transitionOf(misspelt)).toThrow(
      `${first.operation.id}: x-sandbox-state names no state change`,
    );
  });
});
