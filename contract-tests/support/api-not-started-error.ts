// A call to an API for which this run started no Prism: the run named other APIs (`--api`), or it
// starts no target at all (the suite's checks of itself). Thrown in place of calling the client's
// default server, which for these documents is the operator's production origin.
import { contractVariables } from '../../model/environment.ts';

export class ApiNotStartedError extends Error {
  override readonly name = 'ApiNotStartedError';
  /** The API (document name) the call was for. */
  readonly api: string;

  constructor(api: string) {
    super(`${api}: this run started no Prism for it (--api, ${contractVariables.apis})`);
    this.api = api;
  }
}
