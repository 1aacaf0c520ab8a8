// `txc --validate`: each way an answer differed from the documents, one line on stderr, named by
// the check that found it (the same names as the contract suite's report).
import type { DriftEvent } from '../../validation-options.ts';

export function driftLines(events: readonly DriftEvent[]): string[] {
  return events.flatMap((event) =>
    event.drifts.map(
      (drift) =>
        `txc: drift: ${event.operationId} HTTP ${event.status}: ${drift.check}${drift.field ? ` ${drift.field}` : ''}: ${drift.message}`,
    ),
  );
}
