// The `validate` option's shape, checked when a client or a middleware is made, apart from the
// validator itself (src/validation.ts), which loads only once validation is asked for.
import { ConfigurationError } from './errors.ts';

/** An answer that differs from the documents: which call, which status, and how. */
export interface DriftEvent {
  readonly operationId: string;
  readonly method: string;
  /** The documented path (no base URL, no query). */
  readonly path: string;
  readonly status: number;
  readonly drifts: readonly Drift[];
}

/** The checks an answer goes through, named as the contract suite names them. */
export type DriftCheck =
  | 'status_code_conformance'
  | 'content_type_conformance'
  | 'response_headers_conformance'
  | 'response_schema_conformance';

/** One way an answer differs from the documents. */
export interface Drift {
  readonly check: DriftCheck;
  /** The header (lowercase) or the body field (`data.0.amount`, `(body)` for the whole) at fault. */
  readonly field?: string;
  readonly message: string;
}

export interface ValidationOptions {
  /** The share of answers checked, from 0 to 1 (default 1: every answer). */
  sampleRate?: number;
  /** Called with each answer that drifted; runs synchronously, before the call's result is read. */
  onDrift: (event: DriftEvent) => void;
  /** Where sampling draws from: a function returning [0, 1), `Math.random` by default. */
  random?: () => number;
}

/** Throws a ConfigurationError naming the first field of the option that is not usable. */
export function checkValidationOptions(options: ValidationOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('validate', 'must be an object with onDrift');
  if (typeof options.onDrift !== 'function')
    throw new ConfigurationError('validate.onDrift', 'must be a function');
  const rate = options.sampleRate;
  if (rate !== undefined && !(typeof rate === 'number' && rate >= 0 && rate <= 1))
    throw new ConfigurationError('validate.sampleRate', 'must be a number from 0 to 1');
  if (options.random !== undefined && typeof options.random !== 'function')
    throw new ConfigurationError('validate.random', 'must be a function');
}
